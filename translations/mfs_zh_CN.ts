<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name />
        <message>
            <location filename="../mfs_desktop/ui/i18n.py" line="+23" />
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="+48" />
            <source>Follow the system</source>
            <translation>跟随系统</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/services/notices.py" line="+36" />
            <source>Context compacted: {before} → {after} tokens</source>
            <translation>上下文已压缩：{before} → {after} token</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Context compacted: {before} → {after} tokens (the compactor failed; facts and your words were kept verbatim)</source>
            <translation>上下文已压缩：{before} → {after} token（压缩器失败；事实和你的原话均逐字保留）</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Answered from recent turns only: compaction could not make enough room</source>
            <translation>仅根据最近几轮回答：压缩未能腾出足够空间</translation>
        </message>
        <message>
            <location line="+10" />
            <source>Cleared {count} old tool results from what the model sees (they stay in the transcript)</source>
            <translation>已从模型可见内容中清除 {count} 条旧的工具结果（它们仍保留在记录中）</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Compressed history reorganised: {before} → {after} tokens</source>
            <translation>压缩历史已重新整理：{before} → {after} token</translation>
        </message>
        <message>
            <location line="+2" />
            <source>A degraded part of the compressed history was rebuilt: {before} → {after} tokens</source>
            <translation>压缩历史中降级的部分已重建：{before} → {after} token</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Pinned a message as a standing instruction: the next reply re-reads the context</source>
            <translation>已将一条消息置顶为常驻指令：下一次回复会重新读取上下文</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Unpinned a message: the next reply re-reads the context</source>
            <translation>已取消置顶一条消息：下一次回复会重新读取上下文</translation>
        </message>
        <message>
            <location line="+2" />
            <source>System prompt changed: the next reply re-reads the context</source>
            <translation>系统提示词已更改：下一次回复会重新读取上下文</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Answered from recent turns only: the compressed history had a gap, so memory is now recent-only (switch it back to automatic to start afresh)</source>
            <translation>仅根据最近几轮回答：压缩历史存在缺口，因此记忆已改为仅最近几轮（切换回自动即可重新开始）</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/services/unlock.py" line="+130" />
            <source>No system keychain is available: choose a passphrase (or set MFS_PASSPHRASE) to create the database.</source>
            <translation>没有可用的系统钥匙串：请设置口令（或设置 MFS_PASSPHRASE）以创建数据库。</translation>
        </message>
        <message>
            <location line="+43" />
            <source>Give a new passphrase or choose the keychain.</source>
            <translation>请提供新口令，或选择使用钥匙串。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/chat_view.py" line="+39" />
            <source>You</source>
            <translation>你</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Assistant</source>
            <translation>助手</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Tool</source>
            <translation>工具</translation>
        </message>
        <message>
            <location line="+1" />
            <source>edited</source>
            <translation>已编辑</translation>
        </message>
        <message>
            <location line="+0" />
            <source>document</source>
            <translation>文档</translation>
        </message>
        <message>
            <location line="+1" />
            <source>quoted ai</source>
            <translation>引用助手</translation>
        </message>
        <message>
            <location line="+1" />
            <source>quoted ai annotated</source>
            <translation>引用助手并附说明</translation>
        </message>
        <message>
            <location line="+1" />
            <source>copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <location line="+0" />
            <source>quote</source>
            <translation>引用</translation>
        </message>
        <message>
            <location line="+1" />
            <source>edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <location line="+0" />
            <source>pin</source>
            <translation>置顶</translation>
        </message>
        <message>
            <location line="+1" />
            <source>unpin</source>
            <translation>取消置顶</translation>
        </message>
        <message>
            <location line="+48" />
            <source>{rate:.1f} tokens/s</source>
            <translation>{rate:.1f} token/秒</translation>
        </message>
        <message>
            <location line="+2" />
            <source>{rate} · first token after {seconds:.1f} s · {reused:,} of {prompt:,} prompt tokens from the cache</source>
            <translation>{rate} · 首个 token 用时 {seconds:.1f} 秒 · 提示 {prompt:,} token 中 {reused:,} 个来自缓存</translation>
        </message>
        <message>
            <location line="+12" />
            <source>pinned</source>
            <translation>已置顶</translation>
        </message>
        <message>
            <location line="+4" />
            <source>(stopped: partial answer)</source>
            <translation>（已停止：回答不完整）</translation>
        </message>
        <message>
            <location line="+24" />
            <source>Assistant · answering</source>
            <translation>助手 · 正在回答</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/code_blocks.py" line="+102" />
            <source>copy code</source>
            <translation>复制代码</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/composer.py" line="+28" />
            <source>Write a message… (Enter sends, Shift+Enter for a new line; drop a text file to attach it)</source>
            <translation>输入消息…（Enter 发送，Shift+Enter 换行；拖入文本文件即可作为附件）</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Write a message… (Ctrl+Enter sends, Enter for a new line; drop a text file to attach it)</source>
            <translation>输入消息…（Ctrl+Enter 发送，Enter 换行；拖入文本文件即可作为附件）</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/conversation_tab.py" line="+31" />
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Top-p</source>
            <translation>Top-p 采样</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Top-k</source>
            <translation>Top-k 采样</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Min-p</source>
            <translation>Min-p 采样</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Repeat penalty</source>
            <translation>重复惩罚</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Max tokens</source>
            <translation>最大 token 数</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Seed</source>
            <translation>随机种子</translation>
        </message>
        <message>
            <location line="+2" />
            <source>(own values)</source>
            <translation>（自定义值）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>balanced</source>
            <translation>均衡</translation>
        </message>
        <message>
            <location line="+0" />
            <source>precise</source>
            <translation>精确</translation>
        </message>
        <message>
            <location line="+1" />
            <source>creative</source>
            <translation>创意</translation>
        </message>
        <message>
            <location line="+0" />
            <source>repeatable</source>
            <translation>可复现</translation>
        </message>
        <message>
            <location line="+13" />
            <source>Empty: the default — {prompt}</source>
            <translation>留空：使用默认提示词——{prompt}</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Preset</source>
            <translation>预设</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Defaults</source>
            <translation>恢复默认</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Save as preset…</source>
            <translation>另存为预设…</translation>
        </message>
        <message>
            <location line="+11" />
            <source>System prompt for this conversation (sent first in every request):</source>
            <translation>此对话的系统提示词（每次请求时最先发送）：</translation>
        </message>
        <message>
            <location line="+19" />
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <location line="+60" />
            <source>Saved; the next reply re-reads the context.</source>
            <translation>已保存；下一次回复会重新读取上下文。</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Saved.</source>
            <translation>已保存。</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Save as preset</source>
            <translation>另存为预设</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Name for these values:</source>
            <translation>这组值的名称：</translation>
        </message>
        <message>
            <location line="+12" />
            <source>Preset {name} saved.</source>
            <translation>预设“{name}”已保存。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/i18n.py" line="+13" />
            <source>Internal error ({kind}); this is a bug.</source>
            <translation>内部错误（{kind}）；这是一个程序缺陷。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/export_dialog.py" line="+25" />
            <source>Markdown (.md)</source>
            <translation>Markdown（.md）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>JSON (.json, can be imported again)</source>
            <translation>JSON（.json，可再次导入）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>HTML page (.html)</source>
            <translation>HTML 网页（.html）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>The exported file is plaintext: anyone who can read the file can read the conversation. The database itself stays encrypted.</source>
            <translation>导出的文件是明文：任何能读取该文件的人都能看到对话内容。数据库本身仍保持加密。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Export conversation</source>
            <translation>导出对话</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Whole conversation</source>
            <translation>整个对话</translation>
        </message>
        <message>
            <location line="+8" />
            <source>turns</source>
            <comment>export range: turns [first] to [last]</comment>
            <translation>轮次</translation>
        </message>
        <message>
            <location line="+2" />
            <source>to</source>
            <comment>export range: turns [first] to [last]</comment>
            <translation>至</translation>
        </message>
        <message>
            <location line="+3" />
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="+93" />
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <location line="+9" />
            <source>Format</source>
            <translation>格式</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Range</source>
            <translation>范围</translation>
        </message>
        <message>
            <location line="+1" />
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <location line="+23" />
            <source>Export to (plaintext)</source>
            <translation>导出到（明文）</translation>
        </message>
        <message>
            <location line="+13" />
            <source>conversation</source>
            <comment>file name of an export with no title</comment>
            <translation>对话</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/main_window.py" line="+88" />
            <source>Encrypted database · {folder}</source>
            <translation>加密数据库 · {folder}</translation>
        </message>
        <message>
            <location line="+37" />
            <location line="+78" />
            <source>Loading the model…</source>
            <translation>正在加载模型…</translation>
        </message>
        <message>
            <location line="-71" />
            <source>Filter by title (Ctrl+F)</source>
            <translation>按标题筛选（Ctrl+F）</translation>
        </message>
        <message>
            <location line="+9" />
            <location line="+89" />
            <location filename="../mfs_desktop/ui/search_panel.py" line="+70" />
            <location filename="../mfs_desktop/ui/settings_memory.py" line="+61" />
            <location filename="../mfs_desktop/ui/trash_page.py" line="+53" />
            <location filename="../mfs_desktop/ui/window_organize.py" line="+75" />
            <location line="+6" />
            <location filename="../mfs_desktop/ui/window_stream.py" line="+55" />
            <source>New conversation</source>
            <translation>新对话</translation>
        </message>
        <message>
            <location line="-87" />
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <location line="+2" />
            <location filename="../mfs_desktop/ui/window_conversations.py" line="+57" />
            <source>Move to trash</source>
            <translation>移到回收站</translation>
        </message>
        <message>
            <location line="+26" />
            <source>Context: –</source>
            <translation>上下文：–</translation>
        </message>
        <message>
            <location line="+16" />
            <source>Quote…</source>
            <translation>引用…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Quote one of the assistant's messages, with your note</source>
            <translation>引用助手的一条消息，并附上你的说明</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Attach…</source>
            <translation>附件…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Attach a document: text, PDF or Word (kept encrypted as a snapshot)</source>
            <translation>附加文档：文本、PDF 或 Word（以加密快照保存）</translation>
        </message>
        <message>
            <location line="+2" />
            <location filename="../mfs_desktop/ui/window_generation.py" line="+97" />
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <location line="+29" />
            <source>Context layers</source>
            <translation>上下文分层</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Tool trajectory</source>
            <translation>工具轨迹</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Ledger</source>
            <translation>账本</translation>
        </message>
        <message>
            <location line="+5" />
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Export conversation…</source>
            <translation>导出对话…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Import conversations…</source>
            <translation>导入对话…</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Settings…</source>
            <translation>设置…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Trash…</source>
            <translation>回收站…</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Quit</source>
            <translation>退出</translation>
        </message>
        <message>
            <location line="+1" />
            <source>&amp;Conversation</source>
            <translation>对话(&amp;C)</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Regenerate last answer</source>
            <translation>重新生成上一条回答</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Other answers to the last turn…</source>
            <translation>上一轮的其他回答…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Stop answering</source>
            <translation>停止回答</translation>
        </message>
        <message>
            <location line="+1" />
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="-30" />
            <location filename="../mfs_desktop/ui/settings_memory.py" line="+2" />
            <source>Memory</source>
            <translation>记忆</translation>
        </message>
        <message>
            <location line="+39" />
            <source>Model: {name}</source>
            <translation>模型：{name}</translation>
        </message>
        <message>
            <location line="+30" />
            <source>Context: empty</source>
            <translation>上下文：空</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Context {tokens:,} / {window:,} tokens ({share:.0%}) · next request</source>
            <translation>上下文 {tokens:,} / {window:,} token（{share:.0%}）· 下一次请求</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/models_page.py" line="+47" />
            <source>bundled</source>
            <translation>内置</translation>
        </message>
        <message>
            <location line="+0" />
            <source>downloaded here</source>
            <translation>由本应用下载</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Hugging Face cache</source>
            <translation>Hugging Face 缓存</translation>
        </message>
        <message>
            <location line="+1" />
            <source>your folder</source>
            <translation>你的文件夹</translation>
        </message>
        <message>
            <location line="+1" />
            <location line="+3" />
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="-3" />
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <location line="-3" />
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <location line="+0" />
            <location line="+3" />
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <location line="-2" />
            <source>Quantization</source>
            <translation>量化</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <location line="+1" />
            <location line="+2" />
            <source>On this machine</source>
            <translation>本机</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Note</source>
            <translation>备注</translation>
        </message>
        <message>
            <location line="+17" />
            <source>fits · window {window:,} · ~{estimate}</source>
            <translation>适合本机 · 窗口 {window:,} · 约 {estimate}</translation>
        </message>
        <message>
            <location line="+1" />
            <source>too big · ~{estimate} of {free} free</source>
            <translation>太大 · 约需 {estimate}，可用 {free}</translation>
        </message>
        <message>
            <location line="+20" />
            <source>Models found on this computer:</source>
            <translation>在本机上找到的模型：</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Download a well-known model (from the Hugging Face Hub):</source>
            <translation>下载常用模型（来自 Hugging Face Hub）：</translation>
        </message>
        <message>
            <location line="+25" />
            <source>Use as default</source>
            <translation>设为默认</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Remove…</source>
            <translation>移除…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Use in this conversation</source>
            <translation>用于此对话</translation>
        </message>
        <message>
            <location line="+1" />
            <source>This conversation: follow the default</source>
            <translation>此对话：跟随默认</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Add folder…</source>
            <translation>添加文件夹…</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Refresh</source>
            <translation>刷新</translation>
        </message>
        <message>
            <location line="+17" />
            <source>or: owner/repo file.gguf, or https://…/file.gguf</source>
            <translation>或输入：作者/仓库 文件名.gguf，或 https://…/文件名.gguf</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Download</source>
            <translation>下载</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Hub token…</source>
            <translation>Hub 访问令牌…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>A Hugging Face access token, for gated models; kept where the database key is</source>
            <translation>Hugging Face 访问令牌，用于受限模型；与数据库密钥保存在同一位置</translation>
        </message>
        <message>
            <location line="+14" />
            <source>Hugging Face token</source>
            <translation>Hugging Face 访问令牌</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Token (empty removes the saved one):</source>
            <translation>访问令牌（留空则删除已保存的令牌）：</translation>
        </message>
        <message>
            <location line="+8" />
            <source>Token saved in the keychain.</source>
            <translation>访问令牌已保存到钥匙串。</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Token saved in the database.</source>
            <translation>访问令牌已保存到数据库。</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Token removed.</source>
            <translation>访问令牌已删除。</translation>
        </message>
        <message>
            <location line="+22" />
            <source>cannot be used: {problem}</source>
            <translation>无法使用：{problem}</translation>
        </message>
        <message>
            <location line="+37" />
            <source>{model} at a window of {window:,} tokens is chosen for this conversation; Save loads it.</source>
            <translation>已为此对话选择 {model}，窗口 {window:,} token；点击“保存”后加载。</translation>
        </message>
        <message>
            <location line="+1" />
            <source>{model} at a window of {window:,} tokens is chosen as the default; Save loads it.</source>
            <translation>已将 {model} 设为默认模型，窗口 {window:,} token；点击“保存”后加载。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>This conversation will follow the default model; Save loads it.</source>
            <translation>此对话将跟随默认模型；点击“保存”后加载。</translation>
        </message>
        <message>
            <location line="+9" />
            <source>Delete {file} ({size}) from this computer?</source>
            <translation>要从本机删除 {file}（{size}）吗？</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Remove model</source>
            <translation>移除模型</translation>
        </message>
        <message>
            <location line="+5" />
            <source>A folder with GGUF models</source>
            <translation>包含 GGUF 模型的文件夹</translation>
        </message>
        <message>
            <location line="+34" />
            <source>Choose a model in the list, or type a repository and file, or a URL.</source>
            <translation>请在列表中选择模型，或输入仓库和文件名，或输入 URL。</translation>
        </message>
        <message>
            <location line="+11" />
            <source>Downloading {file}…</source>
            <translation>正在下载 {file}…</translation>
        </message>
        <message>
            <location line="+14" />
            <source>{done} at {speed}/s</source>
            <translation>已下载 {done} · {speed}/s</translation>
        </message>
        <message>
            <location line="+0" />
            <source>{done} of {total} at {speed}/s</source>
            <translation>{done} / {total} · {speed}/s</translation>
        </message>
        <message>
            <location line="+1" />
            <source>{done} of {total} at {speed}/s, {remaining} left</source>
            <translation>{done} / {total} · {speed}/s，剩余 {remaining}</translation>
        </message>
        <message>
            <location line="+13" />
            <source>Downloaded {file} ({size}, SHA-256 verified). Select it and press Use.</source>
            <translation>已下载 {file}（{size}，SHA-256 校验通过）。选中它，然后点击“设为默认”或“用于此对话”。</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Downloaded {file} ({size}, no published SHA-256). Select it and press Use.</source>
            <translation>已下载 {file}（{size}，未发布 SHA-256）。选中它，然后点击“设为默认”或“用于此对话”。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Download cancelled; what arrived is kept, and the next download of this file resumes from there.</source>
            <translation>下载已取消；已下载的部分会保留，下次下载此文件时将从中断处继续下载。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/panels.py" line="+31" />
            <source>System prompt + tools</source>
            <translation>系统提示词 + 工具</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Data block (slot, segments, your words)</source>
            <translation>数据块（知识槽、片段、你的原话）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Recent turns, verbatim</source>
            <translation>最近几轮，逐字保留</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Current input</source>
            <translation>当前输入</translation>
        </message>
        <message>
            <location line="+1" />
            <source>user</source>
            <translation>用户</translation>
        </message>
        <message>
            <location line="+0" />
            <location filename="../mfs_desktop/ui/search_panel.py" line="-1" />
            <source>assistant</source>
            <translation>助手</translation>
        </message>
        <message>
            <location line="+1" />
            <location line="+177" />
            <source>tool</source>
            <translation>工具</translation>
        </message>
        <message>
            <location line="-175" />
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="+51" />
            <source>automatic</source>
            <translation>自动</translation>
        </message>
        <message>
            <location line="+0" />
            <source>recent_only</source>
            <translation>仅最近几轮</translation>
        </message>
        <message>
            <location line="+1" />
            <source>off</source>
            <translation>关闭</translation>
        </message>
        <message>
            <location line="+0" />
            <source>exact</source>
            <translation>精确计数</translation>
        </message>
        <message>
            <location line="+1" />
            <source>anchored</source>
            <translation>锚定计数</translation>
        </message>
        <message>
            <location line="+0" />
            <source>estimated</source>
            <translation>估算</translation>
        </message>
        <message>
            <location line="+36" />
            <source>Open a conversation to see its context.</source>
            <translation>打开一个对话以查看它的上下文。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>{zone}: %v tokens</source>
            <translation>{zone}：%v token</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Pinned standing instructions</source>
            <translation>置顶的常驻指令</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Your words, sent verbatim</source>
            <translation>你的原话，逐字发送</translation>
        </message>
        <message>
            <location line="+0" />
            <location line="+12" />
            <source>tokens</source>
            <translation>token</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Layer</source>
            <translation>层</translation>
        </message>
        <message>
            <location line="+0" />
            <source>uids</source>
            <translation>消息编号</translation>
        </message>
        <message>
            <location line="+0" />
            <source>turns</source>
            <translation>轮次</translation>
        </message>
        <message>
            <location line="+0" />
            <source>items</source>
            <translation>条目</translation>
        </message>
        <message>
            <location line="+0" />
            <source>facts</source>
            <translation>事实</translation>
        </message>
        <message>
            <location line="+1" />
            <source>your words</source>
            <translation>你的原话</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Click a segment to see its items, facts, your words it keeps verbatim and the original messages it covers.</source>
            <translation>点击一个片段，查看它的条目、事实、逐字保留的你的原话，以及它覆盖的原始消息。</translation>
        </message>
        <message>
            <location line="+14" />
            <source>Next request: {payload:,} of {window:,} tokens ({pressure:.0%}; warn {warn:.0%}, hard {hard:.0%}) · memory {memory_mode} · {recent} recent messages verbatim · count {counted_by}</source>
            <translation>下一次请求：{payload:,} / {window:,} token（{pressure:.0%}；警告线 {warn:.0%}，硬上限 {hard:.0%}）· 记忆：{memory_mode} · 最近 {recent} 条消息逐字保留 · 计数方式：{counted_by}</translation>
        </message>
        <message>
            <location line="+2" />
            <source>{count} oldest messages left out</source>
            <translation>最早的 {count} 条消息未放入</translation>
        </message>
        <message>
            <location line="+10" />
            <source>Coverage check: ok ({ms:.2f} ms)</source>
            <translation>覆盖检查：通过（{ms:.2f} 毫秒）</translation>
        </message>
        <message>
            <location line="+3" />
            <source>uids {first}–{last}</source>
            <translation>消息 #{first}–#{last}</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Coverage check failed: {holes}</source>
            <translation>覆盖检查失败：{holes}</translation>
        </message>
        <message>
            <location line="+8" />
            <location line="+34" />
            <source>degraded</source>
            <translation>已降级</translation>
        </message>
        <message>
            <location line="-26" />
            <source>gap</source>
            <translation>缺口</translation>
        </message>
        <message>
            <location line="+0" />
            <source>not covered</source>
            <translation>未覆盖</translation>
        </message>
        <message>
            <location line="+9" />
            <source>Pinned standing instructions: {count} · {used:,} of {budget:,} tokens</source>
            <translation>置顶的常驻指令：{count} 条 · 占用 {used:,} / {budget:,} token</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Pinned standing instructions: none (pin one of your messages in the chat)</source>
            <translation>置顶的常驻指令：无（可在聊天中置顶你的一条消息）</translation>
        </message>
        <message>
            <location line="+6" />
            <location filename="../mfs_desktop/ui/window_organize.py" line="+52" />
            <source>Unpin</source>
            <translation>取消置顶</translation>
        </message>
        <message>
            <location line="+5" />
            <source>{layer} · uids {first_uid}–{last_uid} · turns {first_turn}–{last_turn}</source>
            <translation>{layer} · 消息 #{first_uid}–#{last_uid} · 第 {first_turn}–{last_turn} 轮</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Items</source>
            <translation>条目</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Facts, verbatim</source>
            <translation>事实，逐字保留</translation>
        </message>
        <message>
            <location line="+3" />
            <source>{count} more not kept here (recall_history has them)</source>
            <translation>另有 {count} 条未保留在此（recall_history 可取回）</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Your words, verbatim</source>
            <translation>你的原话，逐字保留</translation>
        </message>
        <message>
            <location line="+3" />
            <source>{count} less binding sentences not kept here (recall_history has them)</source>
            <translation>另有 {count} 句约束较弱的话未保留在此（recall_history 可取回）</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Original messages</source>
            <translation>原始消息</translation>
        </message>
        <message>
            <location line="+2" />
            <source>uid {uid} · turn {turn} · {role}</source>
            <translation>消息 #{uid} · 第 {turn} 轮 · {role}</translation>
        </message>
        <message>
            <location line="+11" />
            <location line="+82" />
            <source>time</source>
            <translation>时间</translation>
        </message>
        <message>
            <location line="-82" />
            <source>arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <location line="+0" />
            <source>status</source>
            <translation>状态</translation>
        </message>
        <message>
            <location line="+0" />
            <source>result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Double-click a call to read its whole result.</source>
            <translation>双击一次调用以阅读完整结果。</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Tool calls, oldest first (results truncated; double-click to expand)</source>
            <translation>工具调用，最早的在前（结果已截断；双击展开）</translation>
        </message>
        <message>
            <location line="+25" />
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location line="+25" />
            <source>payload tokens per turn (blue), tokens evaluated (grey)</source>
            <translation>每轮发送的 token（蓝色）、实际计算的 token（灰色）</translation>
        </message>
        <message>
            <location line="+7" />
            <source>No answered turns yet in this conversation</source>
            <translation>此对话还没有已回答的轮次</translation>
        </message>
        <message>
            <location line="+20" />
            <source>event</source>
            <translation>事件</translation>
        </message>
        <message>
            <location line="+0" />
            <source>depth</source>
            <translation>深度</translation>
        </message>
        <message>
            <location line="+0" />
            <source>tokens in</source>
            <translation>输入 token</translation>
        </message>
        <message>
            <location line="+0" />
            <source>tokens out</source>
            <translation>输出 token</translation>
        </message>
        <message>
            <location line="+1" />
            <source>cache miss</source>
            <translation>缓存未命中</translation>
        </message>
        <message>
            <location line="+0" />
            <source>outcome</source>
            <translation>结果</translation>
        </message>
        <message>
            <location line="+0" />
            <source>detail</source>
            <translation>详情</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/search_panel.py" line="-40" />
            <source>Search every conversation (Ctrl+Shift+F): words, "a phrase", 中文</source>
            <translation>搜索所有对话（Ctrl+Shift+F）：词语、"短语"、中文</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Only this conversation</source>
            <translation>仅此对话</translation>
        </message>
        <message>
            <location line="+38" />
            <location filename="../mfs_desktop/ui/settings_memory.py" line="+14" />
            <source>you</source>
            <translation>你</translation>
        </message>
        <message>
            <location line="+6" />
            <source>{count} found (the newest shown)</source>
            <translation>找到 {count} 条（显示最新的）</translation>
        </message>
        <message>
            <location line="+0" />
            <source>{count} found</source>
            <translation>找到 {count} 条</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Nothing found.</source>
            <translation>没有找到。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/settings_dialog.py" line="-116" />
            <source>This computer (llama.cpp, GGUF file)</source>
            <translation>本机（llama.cpp，GGUF 文件）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>OpenAI-compatible endpoint</source>
            <translation>OpenAI 兼容端点</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Scripted test model (no model work)</source>
            <translation>脚本测试模型（不运行模型）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Enter sends, Shift+Enter is a new line</source>
            <translation>Enter 发送，Shift+Enter 换行</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Ctrl+Enter sends, Enter is a new line</source>
            <translation>Ctrl+Enter 发送，Enter 换行</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Light</source>
            <translation>浅色</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Dark</source>
            <translation>深色</translation>
        </message>
        <message>
            <location line="+1" />
            <source>(unchanged)</source>
            <translation>（未更改）</translation>
        </message>
        <message>
            <location line="+34" />
            <source>{file} cannot be used: {problem}</source>
            <translation>{file} 无法使用：{problem}</translation>
        </message>
        <message>
            <location line="+2" />
            <source>the bundled default model</source>
            <translation>内置默认模型</translation>
        </message>
        <message>
            <location line="+1" />
            <source>✓ {model}: {architecture} {quantization}, {size}, context {context:,} · {fit}</source>
            <translation>✓ {model}：{architecture} {quantization}，{size}，上下文 {context:,} · {fit}</translation>
        </message>
        <message>
            <location line="+16" />
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Endpoints</source>
            <translation>端点</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Profile</source>
            <translation>个人资料</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Models</source>
            <translation>模型库</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Trash</source>
            <translation>回收站</translation>
        </message>
        <message>
            <location line="+23" />
            <source>empty: the bundled SmolLM2-135M-Instruct</source>
            <translation>留空：使用内置的 SmolLM2-135M-Instruct</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Bundled</source>
            <translation>内置</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Use the model that ships with the app</source>
            <translation>使用随应用附带的模型</translation>
        </message>
        <message>
            <location line="+11" />
            <source> tokens</source>
            <translation> token</translation>
        </message>
        <message>
            <location line="+9" />
            <source> MB</source>
            <translation> MB</translation>
        </message>
        <message>
            <location line="+1" />
            <source>none</source>
            <translation>不保存</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Encrypted llama.cpp caches of your conversations, so a reopened one answers at once; the least recently used go first</source>
            <translation>对话的加密 llama.cpp 缓存，重新打开的对话可立即回答；最久未使用的最先清除</translation>
        </message>
        <message>
            <location line="+8" />
            <source>system</source>
            <translation>系统</translation>
        </message>
        <message>
            <location line="+1" />
            <source> pt</source>
            <translation> 磅</translation>
        </message>
        <message>
            <location line="+10" />
            <source>Every budget of the context engine is a share of the window: changing the window changes one number. A new model or window is loaded when you save, a new language when the app starts again.</source>
            <translation>上下文引擎的每项预算都是窗口的一个比例：改变窗口只需改一个数字。新的模型或窗口在保存时加载，新的语言在应用下次启动时生效。</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Model runs on</source>
            <translation>模型运行于</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Model file</source>
            <translation>模型文件</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Window</source>
            <translation>窗口</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Threads</source>
            <translation>线程</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Saved context cache</source>
            <translation>保存的上下文缓存</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Sending</source>
            <translation>发送方式</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Theme</source>
            <translation>主题</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Text size</source>
            <translation>文字大小</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <location line="+18" />
            <source>no key</source>
            <translation>无密钥</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Primary endpoint</source>
            <translation>主端点</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Fallback endpoint</source>
            <translation>备用端点</translation>
        </message>
        <message>
            <location line="+2" />
            <source>URL</source>
            <translation>URL</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Model name</source>
            <translation>模型名称</translation>
        </message>
        <message>
            <location line="+1" />
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <location line="+3" />
            <source>the system keychain</source>
            <translation>系统钥匙串</translation>
        </message>
        <message>
            <location line="+1" />
            <source>the encrypted database (no system keychain is in use here)</source>
            <translation>加密数据库（此处未使用系统钥匙串）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Keys are kept in {where}. The fallback is used when the primary fails, and only with a URL, a model and a key; every switch is shown.</source>
            <translation>密钥保存在{where}中。主端点失败时才使用备用端点，且需填写 URL、模型和密钥；每次切换都会显示。</translation>
        </message>
        <message>
            <location line="+8" />
            <source>What the assistant should know about you, in your words: name, work, preferences…</source>
            <translation>用你自己的话写下助手应当了解的你：姓名、工作、偏好…</translation>
        </message>
        <message>
            <location line="+4" />
            <source>The profile travels in the knowledge slot of every conversation. A new conversation gets it at once; an ongoing one with its next compaction, so the cached prefix is never broken.</source>
            <translation>个人资料放在每个对话的知识槽中。新对话立即获得；进行中的对话在下一次压缩时获得，因此缓存的前缀不会被破坏。</translation>
        </message>
        <message>
            <location line="+14" />
            <source>Choose a GGUF model file</source>
            <translation>选择 GGUF 模型文件</translation>
        </message>
        <message>
            <location line="+0" />
            <source>GGUF models (*.gguf);;All files (*)</source>
            <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
        </message>
        <message>
            <location line="+15" />
            <source>{count:,} / {limit:,} characters</source>
            <translation>{count:,} / {limit:,} 个字符</translation>
        </message>
        <message>
            <location line="+47" />
            <source>The OpenAI-compatible provider needs a primary endpoint URL.</source>
            <translation>OpenAI 兼容的提供方需要一个主端点 URL。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/settings_memory.py" line="-49" />
            <source>Automatic: compact old history</source>
            <translation>自动：压缩旧的历史</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Recent turns only</source>
            <translation>仅最近几轮</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Off: no compressed history, no knowledge slot</source>
            <translation>关闭：不压缩历史，不使用知识槽</translation>
        </message>
        <message>
            <location line="+9" />
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Value</source>
            <translation>值</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Recorded by</source>
            <translation>记录者</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Updated</source>
            <translation>更新时间</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Add…</source>
            <translation>添加…</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Edit…</source>
            <translation>编辑…</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <location line="+13" />
            <source>Open a conversation to see its memory.</source>
            <translation>打开一个对话以查看它的记忆。</translation>
        </message>
        <message>
            <location line="+4" />
            <source>For “{title}”</source>
            <translation>用于“{title}”</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Values the assistant recorded (record_value) — they reach the knowledge slot with the next compaction:</source>
            <translation>助手记录的值（record_value）——在下一次压缩时进入知识槽：</translation>
        </message>
        <message>
            <location line="+12" />
            <source>assistant (#{number})</source>
            <translation>助手（#{number}）</translation>
        </message>
        <message>
            <location line="+15" />
            <source>Add a value</source>
            <translation>添加一个值</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Name:</source>
            <translation>名称：</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Recorded value</source>
            <translation>记录的值</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/status_overlay.py" line="+12" />
            <source>Organizing context…</source>
            <translation>正在整理上下文…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Organized (the next reply may be slower)</source>
            <translation>已整理（下一次回复可能较慢）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Context could not be organized this time; nothing was lost</source>
            <translation>本次未能整理上下文；没有丢失任何内容</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/trash_page.py" line="-19" />
            <source>Restore</source>
            <translation>恢复</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Empty trash now…</source>
            <translation>立即清空回收站…</translation>
        </message>
        <message>
            <location line="+8" />
            <source>Deleted conversations are kept {days} days, then purged for good.</source>
            <translation>已删除的对话会保留 {days} 天，之后将被永久清除。</translation>
        </message>
        <message>
            <location line="+10" />
            <source>{title}   ·   deleted {when}</source>
            <translation>{title}   ·   删除于 {when}</translation>
        </message>
        <message>
            <location line="+17" />
            <source>Empty trash</source>
            <translation>清空回收站</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Delete every conversation in the trash for good? This cannot be undone.</source>
            <translation>要永久删除回收站中的所有对话吗？此操作无法撤销。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/unlock_dialog.py" line="+13" />
            <source>Create encrypted database</source>
            <translation>创建加密数据库</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Unlock MFS Desktop</source>
            <translation>解锁 MFS Desktop</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Welcome. Your conversations are kept in an encrypted database in {folder}. No system keychain is available here, so choose a passphrase: it protects the database key. It cannot be recovered if you forget it.</source>
            <translation>欢迎。你的对话保存在 {folder} 中的加密数据库里。此处没有可用的系统钥匙串，请设置一个口令：它保护数据库密钥。忘记口令后无法找回。</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Your conversations are encrypted. Enter the passphrase to open them.</source>
            <translation>你的对话已加密。输入口令以打开它们。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Passphrase</source>
            <translation>口令</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Passphrase again</source>
            <translation>再次输入口令</translation>
        </message>
        <message>
            <location line="+16" />
            <source>Type a passphrase.</source>
            <translation>请输入口令。</translation>
        </message>
        <message>
            <location line="+2" />
            <source>The two passphrases differ.</source>
            <translation>两次输入的口令不一致。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_composing.py" line="+48" />
            <source>Quoting the assistant (#{uid}): “{excerpt}…” — add your note below, or send as is.</source>
            <translation>正在引用助手（#{uid}）：“{excerpt}…”——可在下方添加你的说明，或直接发送。</translation>
        </message>
        <message>
            <location line="+9" />
            <source>There is no assistant message to quote yet.</source>
            <translation>还没有可引用的助手消息。</translation>
        </message>
        <message>
            <location line="+3" />
            <source>Quote a message</source>
            <translation>引用消息</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Which answer?</source>
            <translation>引用哪条回答？</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Attach a document</source>
            <translation>附加文档</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Documents (*.txt *.md *.pdf *.docx *.csv *.json *.log)</source>
            <translation>文档 (*.txt *.md *.pdf *.docx *.csv *.json *.log)</translation>
        </message>
        <message>
            <location line="+1" />
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <location line="+12" />
            <source>Document: {file} ({characters:,} characters) — it is sent with your message.</source>
            <translation>文档：{file}（{characters:,} 个字符）——将随你的消息一起发送。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Pasted text as a document ({characters:,} characters).</source>
            <translation>已将粘贴的文本作为文档（{characters:,} 个字符）。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>Long paste</source>
            <translation>粘贴长文本</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Paste these {characters:,} characters as a document? A document is kept as a snapshot and stays out of the quotes of your own words when history is compacted.</source>
            <translation>要将这 {characters:,} 个字符作为文档粘贴吗？文档会保存为快照；压缩历史时，它不会被当作你的原话逐字引用。</translation>
        </message>
        <message>
            <location line="+29" />
            <source>Copied.</source>
            <translation>已复制。</translation>
        </message>
        <message>
            <location line="+16" />
            <source>Code copied.</source>
            <translation>代码已复制。</translation>
        </message>
        <message>
            <location line="+10" />
            <source>Message #{uid} pinned: the next reply re-reads the context.</source>
            <translation>消息 #{uid} 已置顶：下一次回复会重新读取上下文。</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Message #{uid} unpinned: the next reply re-reads the context.</source>
            <translation>消息 #{uid} 已取消置顶：下一次回复会重新读取上下文。</translation>
        </message>
        <message>
            <location line="+13" />
            <source>Edit and send again</source>
            <translation>编辑并重新发送</translation>
        </message>
        <message>
            <location line="+0" />
            <source>The conversation goes back to this message; the later turns stay stored (and exportable) but leave the view.</source>
            <translation>对话将回到这条消息；之后的轮次仍会保存（也可导出），但不再显示。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_conversations.py" line="-9" />
            <source>Rename conversation</source>
            <translation>重命名对话</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Title:</source>
            <translation>标题：</translation>
        </message>
        <message>
            <location line="+10" />
            <source>Move this conversation to the trash? It is kept {days} days and can be restored until then.</source>
            <translation>要将此对话移到回收站吗？它会保留 {days} 天，在此期间可以恢复。</translation>
        </message>
        <message>
            <location line="+15" />
            <source>Moved to the trash; it is kept {days} days (File → Trash… restores it).</source>
            <translation>已移到回收站，将保留 {days} 天（可通过“文件 → 回收站…”恢复）。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_generation.py" line="-44" />
            <source>The last turn has one answer; Regenerate makes another.</source>
            <translation>上一轮只有一条回答；使用“重新生成”可再生成一条。</translation>
        </message>
        <message>
            <location line="+2" />
            <source>{number} (shown): {answer}</source>
            <translation>{number}（当前显示）：{answer}</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Answers to the last turn</source>
            <translation>上一轮的回答</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Show which answer?</source>
            <translation>显示哪条回答？</translation>
        </message>
        <message>
            <location line="+16" />
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Answering…</source>
            <translation>正在回答…</translation>
        </message>
        <message>
            <location line="+28" />
            <source>Last request {prompt:,} tokens · reused {reused:,} from the cache · prefill {prefill_ms:.0f} ms · {answer_tokens} tokens in {decode_ms:.0f} ms</source>
            <translation>上次请求 {prompt:,} token · 从缓存复用 {reused:,} · 预填充 {prefill_ms:.0f} ms · {decode_ms:.0f} ms 生成 {answer_tokens} token</translation>
        </message>
        <message>
            <location line="+6" />
            <source>{count} oldest messages not sent (window full)</source>
            <translation>最早的 {count} 条消息未发送（窗口已满）</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Stopped: the partial answer is kept.</source>
            <translation>已停止：已保留部分回答。</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Answer stored.</source>
            <translation>回答已保存。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_organize.py" line="-100" />
            <source>January {year}</source>
            <translation>{year}年1月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>February {year}</source>
            <translation>{year}年2月</translation>
        </message>
        <message>
            <location line="+1" />
            <source>March {year}</source>
            <translation>{year}年3月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>April {year}</source>
            <translation>{year}年4月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>May {year}</source>
            <translation>{year}年5月</translation>
        </message>
        <message>
            <location line="+1" />
            <source>June {year}</source>
            <translation>{year}年6月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>July {year}</source>
            <translation>{year}年7月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>August {year}</source>
            <translation>{year}年8月</translation>
        </message>
        <message>
            <location line="+1" />
            <source>September {year}</source>
            <translation>{year}年9月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>October {year}</source>
            <translation>{year}年10月</translation>
        </message>
        <message>
            <location line="+1" />
            <source>November {year}</source>
            <translation>{year}年11月</translation>
        </message>
        <message>
            <location line="+0" />
            <source>December {year}</source>
            <translation>{year}年12月</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Today</source>
            <translation>今天</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Yesterday</source>
            <translation>昨天</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Previous 7 days</source>
            <translation>过去 7 天</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Previous 30 days</source>
            <translation>过去 30 天</translation>
        </message>
        <message>
            <location line="+16" />
            <source>All conversations</source>
            <translation>全部对话</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Archived</source>
            <translation>已归档</translation>
        </message>
        <message>
            <location line="+18" />
            <source>Pinned</source>
            <translation>已置顶</translation>
        </message>
        <message>
            <location line="+9" />
            <source>no messages yet</source>
            <translation>还没有消息</translation>
        </message>
        <message>
            <location line="+1" />
            <source>{turns} turns · {preview}</source>
            <translation>{turns} 轮 · {preview}</translation>
        </message>
        <message>
            <location line="+39" />
            <source>Pin to the top</source>
            <translation>置顶</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Unarchive</source>
            <translation>取消归档</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Archive</source>
            <translation>归档</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Tags…</source>
            <translation>标签…</translation>
        </message>
        <message>
            <location line="+2" />
            <source>Rename…</source>
            <translation>重命名…</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Move to trash…</source>
            <translation>移到回收站…</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Tags</source>
            <translation>标签</translation>
        </message>
        <message>
            <location line="+0" />
            <source>Tags, separated by commas:</source>
            <translation>标签（用逗号分隔）：</translation>
        </message>
        <message>
            <location line="+21" />
            <source>Archived: out of the list, still searchable (the list's Archived view shows it).</source>
            <translation>已归档：不再显示在列表中，但仍可搜索（可在列表的“已归档”视图中查看）。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_panels.py" line="+111" />
            <source>Settings saved.</source>
            <translation>设置已保存。</translation>
        </message>
        <message>
            <location line="+17" />
            <source>Model: {name} · preparing context…</source>
            <translation>模型：{name} · 正在准备上下文…</translation>
        </message>
        <message>
            <location line="+4" />
            <source>Model: {name} · context ready</source>
            <translation>模型：{name} · 上下文已就绪</translation>
        </message>
        <message>
            <location line="+5" />
            <source>Conversation</source>
            <translation>对话</translation>
        </message>
        <message>
            <location line="+45" />
            <source>Exported to {path} (plaintext).</source>
            <translation>已导出到 {path}（明文）。</translation>
        </message>
        <message>
            <location line="+3" />
            <location line="+20" />
            <source>Import conversations</source>
            <translation>导入对话</translation>
        </message>
        <message>
            <location line="-19" />
            <source>MFS Desktop, ChatGPT or Claude exports (*.json *.zip);;All files (*)</source>
            <translation>MFS Desktop、ChatGPT 或 Claude 导出文件 (*.json *.zip);;所有文件 (*)</translation>
        </message>
        <message>
            <location line="+20" />
            <source>{preview}.

Import them?</source>
            <translation>{preview}。

要导入吗？</translation>
        </message>
        <message>
            <location line="+9" />
            <source>Imported {count:,} conversations; {already:,} were here already</source>
            <translation>已导入 {count:,} 个对话；{already:,} 个已存在</translation>
        </message>
        <message>
            <location line="+1" />
            <source>Imported {count:,} conversations</source>
            <translation>已导入 {count:,} 个对话</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_search.py" line="+20" />
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/ui/window_stream.py" line="-33" />
            <source>No conversation yet — start one with Ctrl+N or just write below</source>
            <translation>还没有对话——按 Ctrl+N 新建，或直接在下方输入</translation>
        </message>
        <message>
            <location line="+34" />
            <source>{title}   ·   epoch {epoch}</source>
            <translation>{title}   ·   纪元 {epoch}</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/vault/vault_file.py" line="+84" />
            <source>An empty passphrase would protect nothing; choose one.</source>
            <translation>空口令起不到任何保护作用；请设置一个。</translation>
        </message>
        <message>
            <location line="+21" />
            <source>This database is locked with a passphrase; give it (or set MFS_PASSPHRASE).</source>
            <translation>此数据库由口令锁定；请输入口令（或设置 MFS_PASSPHRASE）。</translation>
        </message>
        <message>
            <location line="+6" />
            <source>Wrong passphrase: the database was not opened and nothing was changed.</source>
            <translation>口令错误：数据库未打开，也没有任何更改。</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/services/model_catalogue.py" line="+43" />
            <source>small and quick; Chinese and English</source>
            <translation>小而快；中文和英文</translation>
        </message>
        <message>
            <location line="+3" />
            <source>a good first choice on 8 GB of memory</source>
            <translation>8 GB 内存的首选</translation>
        </message>
        <message>
            <location line="+3" />
            <source>much better answers; wants 16 GB</source>
            <translation>回答好得多；需要 16 GB</translation>
        </message>
        <message>
            <location line="+3" />
            <source>English, German, French, Spanish, Italian, Portuguese, Hindi, Thai</source>
            <translation>英语、德语、法语、西班牙语、意大利语、葡萄牙语、印地语、泰语</translation>
        </message>
        <message>
            <location line="+3" />
            <source>over 140 languages</source>
            <translation>支持 140 多种语言</translation>
        </message>
        <message>
            <location line="+3" />
            <source>strong at reasoning for its size</source>
            <translation>同等规模中推理能力强</translation>
        </message>
        <message>
            <location filename="../mfs_desktop/services/documents.py" line="+40" />
            <source>{name} is a binary file; attach text, PDF or Word (.docx) documents.</source>
            <translation>{name} 是二进制文件；请附加文本、PDF 或 Word（.docx）文档。</translation>
        </message>
        <message>
            <location line="+1" />
            <source>{name} is empty.</source>
            <translation>{name} 是空的。</translation>
        </message>
        <message>
            <location line="+5" />
            <source>{name} is {size:.1f} MB; documents like it can be at most {limit} MB.</source>
            <translation>{name} 有 {size:.1f} MB；这类文档最大 {limit} MB。</translation>
        </message>
        <message>
            <location line="+18" />
            <source>{name} is a binary file or an unknown encoding; attach text, PDF or Word (.docx) documents.</source>
            <translation>{name} 是二进制文件或编码无法识别；请附加文本、PDF 或 Word（.docx）文档。</translation>
        </message>
        <message>
            <location line="+20" />
            <source>{name} is an encrypted PDF; open it, save a copy without a password, and attach that.</source>
            <translation>{name} 是加密的 PDF；请打开它，另存一份不带密码的副本，再附加那份副本。</translation>
        </message>
        <message>
            <location line="+6" />
            <source>{name} is a damaged PDF ({kind}); it cannot be read.</source>
            <translation>{name} 是损坏的 PDF（{kind}），无法读取。</translation>
        </message>
        <message>
            <location line="+3" />
            <source>{name} has no text layer (a scanned PDF?); run text recognition on it first, or attach the text.</source>
            <translation>{name} 没有文字层（扫描版 PDF？）；请先对它做文字识别，或直接附加文字。</translation>
        </message>
        <message>
            <location line="+11" />
            <source>{name} is a zip archive, not a Word document; attach text, PDF or .docx.</source>
            <translation>{name} 是 zip 压缩包，不是 Word 文档；请附加文本、PDF 或 .docx。</translation>
        </message>
        <message>
            <location line="+3" />
            <source>{name} is a damaged archive; it cannot be read.</source>
            <translation>{name} 是损坏的压缩包，无法读取。</translation>
        </message>
        <message>
            <location line="+7" />
            <source>{name} is a damaged Word document ({kind}).</source>
            <translation>{name} 是损坏的 Word 文档（{kind}）。</translation>
        </message>
        <message>
            <location line="+8" />
            <source>{name} holds no text.</source>
            <translation>{name} 不含任何文字。</translation>
        </message>
    </context>
</TS>
