"""The legal-action memos of every cached ruleset stay within one process-wide bound, and clearing them
never changes a fight."""

from issoku.envs.breath_duel_v0 import raw_env
from issoku.rules.breath import memo
from issoku.rules.breath.memo import LegalMemo, total_entries


def test_memos_of_many_rulesets_stay_within_the_total_bound(monkeypatch):
    monkeypatch.setattr(memo, "MEMO_LIMIT", 60)
    monkeypatch.setattr(memo, "TOTAL_LIMIT", 100)
    monkeypatch.setattr(memo, "CHECK_EVERY", 10)
    memos = [LegalMemo() for _ in range(8)]
    baseline = total_entries() - sum(len(m) for m in memos)
    for index, one in enumerate(memos):
        for key in range(50):
            one.remember(("situation", index, key), (key,))
            assert sum(len(m) for m in memos) <= 100 + 2 * 10 + baseline
    assert max(len(m) for m in memos) <= 60


def test_a_fight_is_the_same_with_a_memo_that_keeps_starting_over(monkeypatch):
    def fight_log() -> str:
        env = raw_env(["kenshi", "ronin"], record_events=True)
        env.reset(seed=5)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            mask = env.observe(agent)["action_mask"]
            env.step(None if terminated or truncated else int(mask.nonzero()[0][len(mask.nonzero()[0]) // 2]))
        return env.unwrapped.game_state.events.to_jsonl()

    normal = fight_log()
    monkeypatch.setattr(memo, "MEMO_LIMIT", 3)
    assert fight_log() == normal
