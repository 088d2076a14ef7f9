from fakes import fake_llm

from stealthflow.utility import UtilityJudge, lexical_utility, parse_judgement


def test_identical_text_scores_one():
    score = lexical_utility("I love hiking in the Alps with my dog.", "I love hiking in the Alps with my dog.")
    assert score.bleu == score.rouge1 == score.rougel == 1.0 and score.mean == 1.0


def test_rewrites_score_lower_and_ordered():
    original = "I love hiking in the Alps with my dog every weekend."
    light = lexical_utility(original, "I love hiking in the mountains with my dog every weekend.")
    heavy = lexical_utility(original, "Outdoor activities are nice.")
    assert 0 <= heavy.mean < light.mean < 1


def test_judge_parsing():
    assert parse_judgement('{"readability": 8, "meaning": 6, "hallucination": 0}').meaning == 6
    loose = parse_judgement("Readability: 7/10\nMeaning: 9\nHallucination: 1")
    assert (loose.readability, loose.meaning, loose.hallucination) == (7, 9, 1)
    missing = parse_judgement("The text is great!")
    assert missing.readability is None and missing.meaning is None and missing.hallucination is None
    out_of_range = parse_judgement('{"readability": 42, "meaning": 0}')
    assert out_of_range.readability is None and out_of_range.meaning is None


def test_utility_judge_uses_the_prompt_file():
    seen = []

    def answer(messages):
        seen.append(messages[0]["content"])
        return '{"readability": 9, "meaning": 8, "hallucination": 0}'

    (result,) = UtilityJudge(fake_llm(answer)).judge_many([("orig text", "new text")])
    assert result.meaning == 8
    assert "orig text" in seen[0] and "new text" in seen[0]
