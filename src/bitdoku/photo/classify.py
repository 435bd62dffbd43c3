"""Recognise a printed digit or letter: a small multilayer perceptron in NumPy, trained by ``tools/train_digits.py``.

Two layers (784 -> hidden ReLU -> 17 softmax: "no digit", the digits 1-9 and the letters A-G, which are the
values 10-16 of a 16x16 grid) read the 28 x 28 crops of all the cells in well under a millisecond and need no
deep-learning framework: the weights are arrays in ``digits.npz``
beside this module, with the attribution of the photographs they were trained on (see ``MODEL.md``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

MODEL = "digits.npz"
#: What each output means when the model's metadata does not say (the first, digits-only models).
DIGITS_ONLY = ".123456789"


class Classifier:
    """The trained weights; ``probabilities`` gives, for each crop, the chance that it is no digit at all (a
    smudge, a shaded cell, a pencil mark, a stub of a line: column 0) and of each value (column v)."""

    def __init__(self, weights: dict[str, npt.NDArray[np.float32]], metadata: dict[str, object]) -> None:
        self.weights = weights
        self.metadata = metadata
        self.classes = str(metadata.get("classes", DIGITS_ONLY))

    @property
    def largest(self) -> int:
        """The largest value the model reads (9 for digits only, 16 with the letters A-G)."""
        return len(self.classes) - 1

    def probabilities(self, images: npt.NDArray[np.float32], n: int = 9) -> npt.NDArray[np.float64]:
        """An array (len(images), n + 1): row i is the softmax over "no digit" and the values 1..n for
        ``images[i]`` (SIZE x SIZE, ink 1); values above n (letters in a 9x9 grid) are left out."""
        if not 1 <= n <= self.largest:
            raise ValueError(f"the digit model reads values 1 to {self.largest}, not a grid of {n}")
        return forward(self.weights, images.reshape(len(images), -1), n + 1)


def forward(weights: dict[str, npt.NDArray[np.float32]], inputs: npt.NDArray[np.float32], classes: int | None = None
            ) -> npt.NDArray[np.float64]:
    """The network's softmax output for flattened inputs (n, 784), with the training's own normalisation, over
    its first ``classes`` outputs (all by default): the others are masked out before the softmax."""
    x = (inputs - weights["mean"]) / weights["std"]
    hidden = np.maximum(x @ weights["w1"] + weights["b1"], 0)
    logits = (hidden @ weights["w2"][:, :classes] + weights["b2"][:classes]).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    result: npt.NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
    return result


@lru_cache(maxsize=1)
def load() -> Classifier:
    """The model shipped with the package, read once (a pure function of the installed file)."""
    with resources.files("bitdoku.photo").joinpath(MODEL).open("rb") as handle, np.load(handle) as data:
        weights = {name: data[name].astype(np.float32) for name in data.files if name != "metadata"}
        metadata = json.loads(str(data["metadata"]))
    return Classifier(weights, metadata)
