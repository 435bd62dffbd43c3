"""Recognise a printed digit: a small multilayer perceptron in NumPy, trained by ``tools/train_digits.py``.

Two layers (784 -> hidden ReLU -> 10 softmax: "no digit" and the digits 1-9) read the 28 x 28 crops of all 81
cells in well under a millisecond and need no deep-learning framework: the weights are arrays in ``digits.npz``
beside this module, with the attribution of the photographs they were trained on (see ``MODEL.md``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

MODEL = "digits.npz"


class Classifier:
    """The trained weights; ``probabilities`` gives, for each crop, the chance that it is no digit at all (a
    smudge, a shaded cell, a stub of a line: column 0) and of each digit 1-9 (column d)."""

    def __init__(self, weights: dict[str, npt.NDArray[np.float32]], metadata: dict[str, object]) -> None:
        self.weights = weights
        self.metadata = metadata

    def probabilities(self, images: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """An array (n, 10): row i is the softmax over "no digit" and 1-9 for ``images[i]`` (SIZE x SIZE, ink 1)."""
        return forward(self.weights, images.reshape(len(images), -1))


def forward(weights: dict[str, npt.NDArray[np.float32]], inputs: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The network's softmax output for flattened inputs (n, 784), with the training's own normalisation."""
    x = (inputs - weights["mean"]) / weights["std"]
    hidden = np.maximum(x @ weights["w1"] + weights["b1"], 0)
    logits = (hidden @ weights["w2"] + weights["b2"]).astype(np.float64)
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
