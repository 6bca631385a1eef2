"""Character-level tokenizer for the tiny LM, built with `tokenizers` and wrapped for `transformers`.

One token per character: the ten digits, ``+``, ``=`` and the filler ``.``, plus ``<pad>``, ``<s>``
(BOS, prepended by the post-processor) and ``</s>`` (EOS, ends a response). Saved with
``save_pretrained`` it loads back with plain ``AutoTokenizer.from_pretrained(dir)``.
"""

from __future__ import annotations

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors
from transformers import PreTrainedTokenizerFast

__all__ = ["PAD", "BOS", "EOS", "FILLER", "CHARS", "build_tokenizer"]

PAD, BOS, EOS = "<pad>", "<s>", "</s>"
FILLER = "."  # a "thinking" character the model may emit before its answer
CHARS = list("0123456789+=") + [FILLER]


def build_tokenizer(chars=None) -> PreTrainedTokenizerFast:
    """Return the character-level tokenizer (vocab: PAD=0, BOS=1, EOS=2, then ``chars``).

    ``chars``: the alphabet, one token per character, in vocabulary order (default ``CHARS``,
    reversed addition's; a task's own is ``rlviz.lm.tasks.TaskSpec.chars``).

    ``encode("37+5=")`` gives ``[BOS, '3', '7', '+', '5', '=']``; ``decode(..., skip_special_tokens=True)``
    concatenates the characters back. Unknown characters raise nothing but map to ``<pad>``; callers
    only feed task text. ``padding_side`` defaults to ``"left"`` (prompts are left-padded for generation).

    Raises:
        ValueError: ``chars`` holds a repeat or something other than one character.
    """
    chars = CHARS if chars is None else list(chars)
    if len(set(chars)) != len(chars) or any(len(c) != 1 for c in chars):
        raise ValueError(f"chars: must be distinct single characters, got {chars!r}")
    vocab = {tok: i for i, tok in enumerate([PAD, BOS, EOS] + chars)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token=PAD))
    # isolate every single character as its own pre-token
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tok.decoder = decoders.Fuse()  # decode concatenates tokens without spaces
    bos_id = vocab[BOS]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{BOS} $A", pair=f"{BOS} $A $B", special_tokens=[(BOS, bos_id)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        unk_token=PAD,
        padding_side="left",
        model_max_length=128,
    )
    return fast
