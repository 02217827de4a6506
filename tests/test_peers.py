"""The peers' strategies in scripts/peers.py behave as the apps they stand for (issue 6): a
benchmark against straw men would prove nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from peers import Rolling, Shift, Sliding, TokenLengths, Utterance  # noqa: E402
from prefill_clock import Clock, Step  # noqa: E402

from mfs_desktop.compaction.compactor import ExtractiveCompactor  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.estimate import estimate_text_tokens  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.runtime.protocol import ChatMessage  # noqa: E402
from mfs_desktop.runtime.tools import TOOLS  # noqa: E402
from mfs_desktop.services.conversation.replay import common_prefix  # noqa: E402

WINDOW = 1024


@pytest.fixture(scope="module")
def tokenizer() -> EmbeddedModel:
    return EmbeddedModel(default_model_path(), n_ctx=4096, tokenizer_only=True)


def conversation(turns: int) -> list[Utterance]:
    messages = []
    for turn in range(turns):
        messages.append(Utterance("user", f"Turn {turn}: tell me about the trip to place number {turn} please.",
                                  f"D1:{2 * turn + 1}"))
        messages.append(Utterance("assistant", f"Place {turn} was lovely; we walked {turn + 3} km by the river.",
                                  f"D1:{2 * turn + 2}"))
    return messages


def test_sliding_sends_the_newest_whole_turns_that_fit(tokenizer) -> None:
    messages = conversation(80)
    sliding = Sliding(messages, TokenLengths(tokenizer, messages), WINDOW)
    last_user = len(messages) - 2
    request = sliding.request(last_user)
    assert len(tokenizer.prompt_tokens(request, TOOLS)) <= 0.95 * WINDOW
    assert request[1].role == "user" and request[-1].content == messages[last_user].text
    assert messages[sliding.first].role == "user" and sliding.first >= 2
    # it is as generous as the window allows: one more whole turn would not have fitted
    assert sliding.lengths.of(sliding.first - 2, last_user + 1) > 0.95 * WINDOW - sliding.lengths.fixed


def test_shift_keeps_the_system_prompt_and_drops_the_oldest_half_in_place(tokenizer) -> None:
    messages = conversation(80)
    shift = Shift(messages, TokenLengths(tokenizer, messages), WINDOW)
    for k in range(len(messages)):
        shift.advance(k)
    assert shift.shifts > 0 and max(shift.payloads) <= WINDOW
    final = shift.final_text(len(messages) - 1)
    from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT

    assert final.startswith(DEFAULT_SYSTEM_PROMPT)  # the system prompt stays
    assert messages[-1].text in final and messages[0].text not in final


def test_rolling_summarises_at_the_high_water_mark_and_keeps_recent_user_words(tokenizer) -> None:
    messages = conversation(80)
    rolling = Rolling(messages, TokenLengths(tokenizer, messages), WINDOW, ExtractiveCompactor(estimate_text_tokens),
                      estimate_text_tokens)
    sizes = []
    for k, message in enumerate(messages):
        if message.role == "user":
            sizes.append(len(tokenizer.prompt_tokens(rolling.request(k, tokenizer), TOOLS)))
    assert rolling.compactor_calls >= 1 and max(sizes) <= WINDOW
    final = rolling.final_text(len(messages) - 1)
    assert "[summary of the earlier conversation]" in final
    first_raw = min([*rolling.kept_user, rolling.start])
    summarised = [m.text for m in messages[:first_raw]]
    # the summary absorbed sentences of turns that are no longer sent as they were
    assert any(sentence in item for item in rolling.summary_items for text in summarised
               for sentence in text.split("; ")), rolling.summary_items
    assert messages[rolling.kept_user[-1]].text in final


def clock_trace(tokenizer, turns: int) -> list[Step]:
    """Requests of the whole growing conversation, each followed by its answer."""
    chat: list[ChatMessage] = [ChatMessage("system", "You are brief.")]
    steps = []
    for message in conversation(turns):
        if message.role == "user":
            chat.append(ChatMessage("user", message.text))
            steps.append(Step("request", tuple(tokenizer.prompt_tokens(chat))))
        else:
            chat.append(ChatMessage("assistant", message.text))
            steps.append(Step("answer", tuple(tokenizer.answer_tokens(message.text))))
    return steps


def test_clock_prefills_only_what_the_cache_misses(tokenizer) -> None:
    steps = clock_trace(tokenizer, 4)
    requests = [list(s.ids) for s in steps if s.kind == "request"]
    clock = Clock(default_model_path(), 1024, threads=2)
    timed = clock.replay(steps)
    # the first request whole, then for each later one what neither it nor its answer held
    answers = [list(s.ids) for s in steps if s.kind == "answer"]
    expected = len(requests[0]) + sum(
        len(r) - common_prefix(p + a, r) for p, a, r in zip(requests, answers, requests[1:], strict=False)
    )
    assert timed.prefilled_tokens == timed.measured_tokens == expected < sum(map(len, requests)) / 2
    assert timed.requests == timed.measured_requests == 4 and timed.seconds > 0
    assert list(clock.llama.input_ids[: clock.llama.n_tokens]) == requests[-1]  # the cache holds what was sent
    sampled = clock.replay(steps, sample_every=3)
    assert sampled.measured_requests == 2 and sampled.prefilled_tokens == expected and sampled.sampled_every == 3


def test_clock_shift_moves_the_kv_cache_in_place(tokenizer) -> None:
    import llama_cpp

    steps = clock_trace(tokenizer, 30)
    window, keep = 256, 12
    clock = Clock(default_model_path(), window, threads=2)
    timed = clock.replay_shift(steps, keep)
    llama = clock.llama
    memory = llama_cpp.llama_get_memory(llama._ctx.ctx)
    # positions stay contiguous after the shifts, the kept prefix untouched, all under the window
    assert 0 < llama.n_tokens < window
    assert llama_cpp.llama_memory_seq_pos_max(memory, 0) == llama.n_tokens - 1
    assert list(llama.input_ids[:keep]) == list(steps[0].ids[:keep])
    assert list(llama.input_ids[llama.n_tokens - len(steps[-1].ids): llama.n_tokens]) == list(steps[-1].ids)
    # nothing was prefilled twice: each request added only its own new tokens
    assert timed.prefilled_tokens < sum(len(s.ids) for s in steps if s.kind == "request") / 4


def test_evidence_is_read_in_views_over_time_against_what_came_before(tokenizer) -> None:
    from bench_peers import evidence_over_views, evidence_presence, run_requests, sampled_turns

    messages = conversation(40)
    document = {"qa": [{"category": 4, "question": "How far?", "answer": "3 km", "evidence": ["D1:2"]},
                       {"category": 4, "question": "Where?", "answer": "place 39", "evidence": ["D1:79"]}]}
    turns = sampled_turns(messages)
    assert len(turns) == 20 and all(messages[k].role == "user" for k in turns) and turns[0] >= 40
    assert evidence_presence(document, messages, messages[1].text, before=10)["all"] == 1.0
    assert evidence_presence(document, messages, messages[1].text)["all"] == 0.5
    assert evidence_presence(document, messages, "", before=1)["all"] is None, "nothing asked yet"
    run = run_requests(Sliding(messages, TokenLengths(tokenizer, messages), WINDOW), messages, tokenizer)
    assert sorted(run["views"]) == turns
    # sliding has long dropped turn 0, and question 2's evidence comes after every sampled view
    assert evidence_over_views(document, messages, run["views"]) == 0.0
    everything = {k: "\n".join(m.text for m in messages[: k + 1]) for k in turns}
    assert evidence_over_views(document, messages, everything) == 1.0


def test_a_request_reads_back_as_the_text_it_holds(tokenizer) -> None:
    chat = [ChatMessage("system", "You are brief."), ChatMessage("user", "Port 5432 · naïve café — ok?")]
    text = tokenizer.text_of(tokenizer.prompt_tokens(chat))
    assert "Port 5432 · naïve café — ok?" in text and "You are brief." in text


def test_the_summary_gives_each_windows_mean_and_range_across_conversations() -> None:
    from bench_peers import STRATEGIES, summary

    def run(window: int, ratio: float, mfs_views: float) -> dict:
        figures = {name: {"prefill_vs_minimum": ratio * (n + 1), "evidence": {"all": 0.1 * (n + 1)},
                          "evidence_over_views": 0.2, "question_time_evidence": {"all": 0.25 * ratio}}
                   for n, name in enumerate(STRATEGIES)}
        figures["mfs"]["evidence_over_views"] = mfs_views
        return {"window": window, "strategies": figures}

    table = summary([run(4096, 1.0, 0.1), run(4096, 3.0, 0.3), run(8192, 2.0, 0.2)])
    assert table["4096"]["conversations"] == 2 and table["8192"]["conversations"] == 1
    assert table["4096"]["mfs"]["prefill_vs_minimum"] == {"mean": 2.0, "min": 1.0, "max": 3.0}
    assert table["4096"][STRATEGIES[1]]["prefill_vs_minimum"] == {"mean": 4.0, "min": 2.0, "max": 6.0}
    assert table["4096"][STRATEGIES[1]]["evidence_over_views_mean"] == 0.2
    assert table["4096"][STRATEGIES[1]]["mfs_at_least_as_much_evidence"] == 1, "0.3 >= 0.2 but 0.1 < 0.2"
    assert table["8192"][STRATEGIES[1]]["mfs_at_least_as_much_evidence"] == 1, "a tie counts"
    assert table["4096"]["mfs+recall"]["question_time_evidence_mean"] == 0.5


def test_question_time_evidence_reads_each_question_against_its_own_request() -> None:
    """A strategy that builds a request per question is judged on that request; a peer's
    request does not depend on the question, so its final view stands for every question."""
    from bench_peers import question_time_evidence
    from peers import Utterance

    messages = [Utterance("user", "I adopted a cat called Mochi.", "D1:1"), Utterance("assistant", "Lovely!", "D1:2"),
                Utterance("user", "My sister lives in Lyon.", "D1:3")]
    document = {"qa": [{"question": "What is the cat called?", "answer": "Mochi", "evidence": ["D1:1"], "category": 4},
                       {"question": "Where does the sister live?", "answer": "Lyon", "evidence": ["D1:3"],
                        "category": 1}]}
    per_question = {"question_time": {"What is the cat called?": "recalled: I adopted a cat called Mochi.",
                                      "Where does the sister live?": "nothing about it"}, "final_text": ""}
    assert question_time_evidence(document, messages, per_question)["all"] == 0.5
    final_only = {"final_text": "My sister lives in Lyon."}
    assert question_time_evidence(document, messages, final_only)["per_category"]["multi-hop"] == 1.0


def test_a_long_talk_joins_conversations_in_order_and_keeps_their_questions(tmp_path) -> None:
    from bench_peers import evidence_presence, long_talk_file
    from peers import locomo_messages

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path, names in ((first, ("Ann", "Bob")), (second, ("Cy", "Dee"))):
        turns = [{"speaker": names[i % 2], "dia_id": f"D{s}:{i + 1}", "text": f"{path.stem} session {s} line {i}"}
                 for s in (1, 2) for i in range(4)]
        document = {"speaker_a": names[0], "speaker_b": names[1],
                    **{f"session_{s}": [t for t in turns if t["dia_id"].startswith(f"D{s}:")] for s in (1, 2)},
                    **{f"session_{s}_date_time": f"1:56 pm on {s} May, 2023" for s in (1, 2)},
                    "qa": [{"category": 4, "question": "?", "answer": "zzz", "evidence": ["D2:3", "D1:1; D2:2"]}]}
        path.write_text(json.dumps(document))
    joined = long_talk_file([first, second], tmp_path)
    messages = locomo_messages(joined)
    assert [m.text for m in messages] == [f"{p} session {s} line {i}" for p in "ab" for s in (1, 2) for i in range(4)]
    assert [m.role for m in messages[:2]] + [m.role for m in messages[8:10]] == ["user", "assistant"] * 2
    document = json.loads(joined.read_text())
    assert [q["evidence"] for q in document["qa"]] == [["D2:3"], ["D4:3"]], "renumbered; a malformed id dropped"
    assert evidence_presence(document, messages, "b session 2 line 2")["all"] == 0.5, "b's question, not a's"
