"""Monte Carlo rounds of the advisors: sampled deals in seeded chunks, more rounds while
the inference weights leave too few effective samples (docs/methods.md#inference)."""
from __future__ import annotations

import numpy as np

from analyzer.parallel import parallel_map

CHUNK = 500
ESS_FRACTION = 0.25     # below this effective share, draw more rounds (inference)
MAX_ROUNDS = 8


def sample_rounds(run_chunk, chunk_args, samples: int, n_jobs: int, inference: bool,
                  progress=None, *, chunk: int = CHUNK, ess_fraction: float = ESS_FRACTION,
                  first: int = 0) -> dict:
    """Draw ``samples`` deals in chunks of ``chunk`` through ``run_chunk(*chunk_args(c, n))``
    (c = the chunk's index in the seed sequence, n = its deals) and concatenate the
    returned dicts of arrays (each has a ``weight`` array).

    With ``inference``, while the weights leave fewer than ``samples * ess_fraction``
    effective samples, further rounds of ``samples`` deals are drawn, up to MAX_ROUNDS in
    all; chunk indices continue the same sequence from ``first``, so the result depends
    only on the seed and never on ``n_jobs``.  ``progress(done, planned)`` is called after
    each chunk; ``planned`` grows when a round is added.  Every table's advisor draws its
    deals here: the three-player advisors in chunks of CHUNK (ESS_FRACTION), the partners'
    table's in one chunk a round (``chunk=samples``, half the samples effective,
    ``first`` = the caller's key x MAX_ROUNDS: analyzer.analyses.advice_samples).
    """
    sizes = [min(chunk, samples - i) for i in range(0, samples, chunk)]
    parts = []
    for rnd in range(MAX_ROUNDS):
        base = first + rnd * len(sizes)
        args = [chunk_args(base + c, n) for c, n in enumerate(sizes)]
        planned = (rnd + 1) * len(sizes)
        # threads: each chunk is one nogil kernel call (analyzer.parallel.parallel_map)
        for part in parallel_map(run_chunk, args, n_jobs, len(args), threads=True):
            parts.append(part)
            if progress is not None:
                progress(len(parts), planned)
        w = np.concatenate([p["weight"] for p in parts])
        # (no weight left, or an infinite one: draw on, as for too few effective samples)
        if not inference or (w.sum() > 0 and np.isfinite(w).all()
                             and w.sum() ** 2 / (w ** 2).sum() >= ess_fraction * samples):
            break
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
