"""How a step is told to a person: one message table per language.

Every sentence a hint, a Steps sheet or the Hint button shows comes from
:data:`MESSAGES`, and so does every title and header of the hints workbook and of the
class summary; a third language is one more table (and one more entry in
``nonogram.puzzle.LINE_NAMES``), not a branch in the code.
"""

from __future__ import annotations

import re

from ..nonogram.cells import BLACK, is_black, is_white
from ..nonogram.puzzle import LineId, Puzzle, clue_text, line_name
from ..nonogram.result import (
    LINE,
    PROBE,
    RULE_DISCREPANCY,
    RULE_LINE,
    SEARCH,
    Step,
)
from .rules import Finding, refind, step_masks

RULE_NAMES = {  # rule id → name per language (RULES.md)
    "empty": {"en": "Empty line", "ja": "空行"},
    "full": {"en": "Full line", "ja": "確定行"},
    "done": {"en": "Line complete", "ja": "完成"},
    "overlap": {"en": "Overlap", "ja": "重なり"},
    "too-small": {"en": "Gap too small", "ja": "小さすぎる空白"},
    "range": {"en": "Out of reach", "ja": "範囲外"},
    "edge": {"en": "Edge", "ja": "端から"},
    "cap": {"en": "Cap", "ja": "両端を閉じる"},
    "join": {"en": "Join", "ja": "つなぐ"},
    "attach": {"en": "Attachment", "ja": "配属"},
    "reach": {"en": "Limited reach", "ja": "届かない"},
    "line": {"en": "Line logic", "ja": "行の論理"},
    "contradiction": {"en": "Contradiction", "ja": "背理法"},
    "guess": {"en": "Guess", "ja": "仮定"},
    "discrepancy": {"en": "Discrepancy", "ja": "矛盾"},
    "given": {"en": "Given", "ja": "初期配置"},
    "both-ways": {"en": "Both ways agree", "ja": "両方の仮定で一致"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "black": "black",
        "white": "white",
        "cell": "cell {a}",
        "cells": "cells {a}–{e}",
        "list_sep": ", ",
        "part_sep": "; ",
        "count_black": "{count} black",
        "count_white": "{count} white",
        "empty": "{where} has no blocks — all white",
        "full": "{where}: {clues} fills all {n} cells",
        "full_free": "{where}: {clues} fits the {free} free cells exactly",
        "done": "{where}: all blocks are in place — the rest is white",
        "overlap": "{where}: {parts}",
        "overlap_exact": "clue {clue} fits exactly in its {free} free cells",
        "overlap_middle": "clue {clue} in {free} free cells — the middle {k} must be black",
        "too-small": "{where}: the gap at {gaps} is smaller than {smallest} — white",
        "range": "{where}: no block can reach {runs} — white",
        "edge": "{where}: the block at cell {cell} touches {side}, so it runs {m} cells",
        "edge_at_edge": "the edge",
        "edge_at_white": "a white cell",
        "cap": "{where}: the black run at {cells} is complete — its ends are white",
        "join": (
            "{where}: one block of {clue} holds both cell {i} and cell {k}, "
            "so the cells between are black"
        ),
        "attach": (
            "{where}: cell {i} can only belong to the {clue}, so {count} more cells are black"
        ),
        "reach": "{where}: the {clue} around cell {i} cannot reach {runs} — white",
        "line": "{where}: in every placement of {clues} these cells agree — {what}",
        "contradiction": (
            "if row {r}, column {c} were {tried}, {failed} could not be filled — so it is {other}"
        ),
        "guess": (
            "row {r}, column {c}: no line and no single trial decides more — "
            "the answer has it {colour} (found by search)"
        ),
        "both-ways": "row {r}, column {c}: black or white, these {count} cells come out the same",
        "discrepancy": "{where}: the painted cells break this line",
        "given": "cells given on the sheet",
        "hint": "{rule}: {reason} — sets {what}",
        "hint_bare": "{rule}: {reason}",
        "cell_at": "R{r}C{c}",
        # the hints workbook: sheet names, titles, the step table's header
        "sheet_steps": "Steps",
        "sheet_order": "Order",
        "sheet_stage": "Stage {n}",
        "title_steps": "{title} — hints",
        "title_order": "{title} — order of deduction",
        "title_stage": "{title} — steps {first}–{last}",
        "hints_stopped": (
            "Stopped after step {n}: the time limit ({limit:g} s) ran out before the grid was"
            " complete. Make the hints again with a longer time limit for the rest."
        ),
        "head_number": "#",
        "head_line": "line",
        "head_rule": "rule",
        "head_cells": "cells",
        "head_reason": "reason",
        # grading: the class summary and the marked copies
        "sheet_summary": "Summary",
        "title_summary": "Class summary — {title}",
        "head_name": "name",
        "head_score": "score",
        "head_wrong": "wrong cells",
        "head_file": "file",
        "head_note": "note",
        "average": "average",
        "marked_wrong": "{count} wrong cells (marked pink)",
        "other_solution": "a different solution that meets every clue",
        "empty_grid": "nothing filled in on the grid",
        "clue_fills": "fills on the clues passed over: {cells}",
        "stray_numbers": "numbers in the grid read as unmarked: {cells}",
        "unread_marks": "{text} in the grid is no mark, read as unmarked: {cells}",
        "not_marked": "no marked copy written: {reason}",
        "marks_elsewhere": "nothing filled in on the grid; sheet '{sheet}' holds marks there",
    },
    "ja": {
        "black": "黒",
        "white": "白",
        "cell": "{a}マス目",
        "cells": "{a}〜{e}マス目",
        "list_sep": "、",
        "part_sep": "; ",
        "count_black": "黒{count}",
        "count_white": "白{count}",
        "empty": "{where}: 塗るブロックがない — 全部白",
        "full": "{where}: {clues} で{n}マスちょうど埋まる",
        "full_free": "{where}: {clues} は空いた{free}マスにちょうど収まる",
        "done": "{where}: ブロックはすべて置けた — 残りは白",
        "overlap": "{where}: {parts}",
        "overlap_exact": "{clue}は{free}マスにちょうど入る — 全部黒",
        "overlap_middle": "{clue}は{free}マスの中 — 真ん中の{k}マスは黒",
        "too-small": "{where}: {gaps}の空白は{smallest}より小さい — 白",
        "range": "{where}: {runs}にはどのブロックも届かない — 白",
        "edge": "{where}: {side}の黒({cell}マス目)から{m}マス伸ばして閉じる",
        "edge_at_edge": "端",
        "edge_at_white": "白マスの隣",
        "cap": "{where}: {cells}の黒は完成 — 両端は白",
        "join": "{where}: {i}マス目と{k}マス目は同じ{clue}のブロック — 間も黒",
        "attach": "{where}: {i}マス目は{clue}のブロックにしか属さない — {count}マス黒",
        "reach": "{where}: {i}マス目の{clue}は{runs}まで届かない — 白",
        "line": "{where}: {clues} のどの置き方でも同じマス — {what}",
        "contradiction": "{r}行{c}列が{tried}だと{failed}が置けない — {other}",
        "guess": (
            "{r}行{c}列: 一本の線でも一マスの仮定でも決まらない — 答えから{colour}とする(探索)"
        ),
        "both-ways": "{r}行{c}列: 黒でも白でも同じになる{count}マス",
        "discrepancy": "{where}: 塗ったマスがこの線の手がかりと合わない",
        "given": "シートに印刷されたマス",
        "hint": "{rule}: {reason} — {what}を塗る",
        "hint_bare": "{rule}: {reason}",
        "cell_at": "{r}行{c}列",
        "sheet_steps": "手順",
        "sheet_order": "順番",
        "sheet_stage": "段階 {n}",
        "title_steps": "{title} — ヒント",
        "title_order": "{title} — 推理の順番",
        "title_stage": "{title} — 手順 {first}〜{last}",
        "hints_stopped": (
            "手順 {n} で停止: 制限時間（{limit:g} 秒）内にすべてのマスが決まりませんでした。"
            "残りは制限時間を長くしてもう一度ヒントを作ってください。"
        ),
        "head_number": "番号",
        "head_line": "線",
        "head_rule": "規則",
        "head_cells": "マス",
        "head_reason": "理由",
        "sheet_summary": "まとめ",
        "title_summary": "クラスのまとめ — {title}",
        "head_name": "名前",
        "head_score": "得点",
        "head_wrong": "間違ったマス",
        "head_file": "ファイル",
        "head_note": "備考",
        "average": "平均",
        "marked_wrong": "間違い{count}マス(ピンクで表示)",
        "other_solution": "手がかりをすべて満たす別の解",
        "empty_grid": "盤面に何も記入されていません",
        "clue_fills": "手がかりのセルの塗りは無視しました: {cells}",
        "stray_numbers": "盤面の数字は未記入として読みました: {cells}",
        "unread_marks": "盤面の{text}は記号として読めず、未記入として読みました: {cells}",
        "not_marked": "採点済みのコピーは書き出していません: {reason}",
        "marks_elsewhere": "盤面に何も記入されていません(シート「{sheet}」に記入あり)",
    },
}
LANGS = tuple(MESSAGES)


def check_lang(lang: str) -> None:
    """Raise ValueError for a language without a message table."""
    if lang not in MESSAGES:
        raise ValueError(f"language {lang!r}: use one of {', '.join(LANGS)}")


# English counts of one: "runs 1 cells" → "runs 1 cell", "1 more cells are" → "1 more cell is".
SINGULAR = (
    (re.compile(r"\bthese 1 cells come\b"), "this 1 cell comes"),
    (re.compile(r"\b1 more cells are\b"), "1 more cell is"),
    (re.compile(r"\b1 (free )?cells\b"), r"1 \1cell"),
)


def say(lang: str, key: str, **fields) -> str:
    """One message of the table, filled in (a count of one in the singular)."""
    text = MESSAGES[lang][key].format(**fields)
    if lang == "en" and "1 " in text:
        for pattern, singular in SINGULAR:
            text = pattern.sub(singular, text)
    return text


def rule_name(rule: str, lang: str = "en") -> str:
    """The name of a rule in a language (the id itself when it has none)."""
    return RULE_NAMES.get(rule, {}).get(lang, rule)


def line_words(line: LineId, lang: str = "en") -> str:
    """``row 4`` / ``4行目``."""
    return line_name(line, lang)


def cells_words(a: int, e: int, lang: str) -> str:
    """Cells a..e (0-based) as a person counts them."""
    if a == e:
        return say(lang, "cell", a=a + 1)
    return say(lang, "cells", a=a + 1, e=e + 1)


def _runs_words(runs: list[tuple[int, int]], lang: str) -> str:
    """Several runs of cells."""
    return MESSAGES[lang]["list_sep"].join(cells_words(a, e, lang) for a, e in runs)


def _counts(new_black: int, new_white: int, lang: str) -> str:
    """``3 black, 2 white`` (a count of zero left out)."""
    parts = []
    if new_black:
        parts.append(say(lang, "count_black", count=new_black.bit_count()))
    if new_white:
        parts.append(say(lang, "count_white", count=new_white.bit_count()))
    return MESSAGES[lang]["list_sep"].join(parts)


def reason_text(finding: Finding, line: LineId, clues: tuple[int, ...], n: int, lang: str) -> str:
    """The plain-words reason for one finding on one line."""
    facts, rule = finding.facts, finding.rule
    common = {"where": line_words(line, lang), "clues": clue_text(clues), "n": n}
    if rule == "full" and "free" in facts:
        return say(lang, "full_free", free=facts["free"], **common)
    if rule == "overlap":
        parts = []
        for clue, lo, hi, a, e in facts["parts"]:
            free, k = hi - lo + 1, e - a + 1
            key = "overlap_exact" if k == free else "overlap_middle"
            parts.append(say(lang, key, clue=clue, free=free, k=k))
        return say(lang, rule, parts=MESSAGES[lang]["part_sep"].join(parts), **common)
    if rule == "too-small":
        gaps = _runs_words(facts["gaps"], lang)
        return say(lang, rule, gaps=gaps, smallest=facts["smallest"], **common)
    if rule == "range":
        return say(lang, rule, runs=_runs_words(facts["runs"], lang), **common)
    if rule == "edge":
        start, m, _step, at_edge = facts["parts"][0]
        side = say(lang, "edge_at_edge" if at_edge else "edge_at_white")
        return say(lang, rule, cell=start + 1, side=side, m=m, **common)
    if rule == "cap":
        a, e = facts["parts"][0]
        return say(lang, rule, cells=cells_words(a, e, lang), **common)
    if rule == "join":
        i, k, clue = facts["parts"][0]
        return say(lang, rule, i=i + 1, k=k + 1, clue=clue, **common)
    if rule == "attach":
        i, clue = facts["parts"][0]
        count = finding.black.bit_count()
        return say(lang, rule, i=i + 1, clue=clue, count=count, **common)
    if rule == "reach":
        i, clue = facts["parts"][0]
        return say(lang, rule, i=i + 1, clue=clue, runs=_runs_words(facts["runs"], lang), **common)
    if rule in ("empty", "full", "done"):
        return say(lang, rule, **common)
    return say(lang, RULE_LINE, what=_counts(finding.black, finding.white, lang), **common)


def probe_words(step: Step, failed: LineId, lang: str) -> str:
    """Why a probed cell is the other colour."""
    r, c = step.cell
    tried_black = step.assumed == BLACK
    tried, other = ("black", "white") if tried_black else ("white", "black")
    return say(
        lang,
        "contradiction",
        r=r + 1,
        c=c + 1,
        tried=say(lang, tried),
        other=say(lang, other),
        failed=line_words(failed, lang),
    )


def reason(step: Step, puzzle: Puzzle | None, lang: str = "en") -> str:
    """A step's reason in plain words, in a language of :data:`MESSAGES`."""
    check_lang(lang)
    if step.kind == SEARCH and step.cell is not None:
        r, c = step.cell
        colour = say(lang, "black" if step.assumed == BLACK else "white")
        return say(lang, "guess", r=r + 1, c=c + 1, colour=colour)
    if step.kind == PROBE and step.cell is not None:
        if step.failed is not None:
            return probe_words(step, step.failed, lang)
        r, c = step.cell
        return say(lang, "both-ways", r=r + 1, c=c + 1, count=len(step.cells))
    if step.rule == RULE_DISCREPANCY and step.line is not None:
        return say(lang, RULE_DISCREPANCY, where=line_words(step.line, lang))
    if step.kind == LINE and step.line is not None and step.before is not None:
        if puzzle is None:
            return step.detail
        clues, n, black, white, new_black, new_white = step_masks(puzzle, step)
        finding = refind(clues, n, black, white, new_black, new_white, step.rule)
        return reason_text(finding, step.line, clues, n, lang)
    if not step.detail and step.rule in MESSAGES[lang]:
        return say(lang, step.rule)
    return step.detail


def hint_message(step: Step, puzzle: Puzzle, lang: str = "en") -> str:
    """One line for the Hint button: the rule's name, the reason and what it sets."""
    black = sum(1 << i for i, (*_, state) in enumerate(step.cells) if is_black(state))
    white = sum(1 << i for i, (*_, state) in enumerate(step.cells) if is_white(state))
    what = _counts(black, white, lang)
    name, why = rule_name(step.rule, lang), reason(step, puzzle, lang)
    if not what:  # a discrepancy marks cells, it sets none
        return say(lang, "hint_bare", rule=name, reason=why)
    return say(lang, "hint", rule=name, reason=why, what=what)
