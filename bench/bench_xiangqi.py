"""Xiangqi move generation speed: perft from the start position, depths 3 and 4.

Run: python bench/bench_xiangqi.py — prints one JSON object per depth.
"""

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine.xiangqi import Board, perft

EXPECTED = {3: 79_666, 4: 3_290_240}


def main() -> None:
    for depth, expected in EXPECTED.items():
        start = time.perf_counter()
        nodes = perft(Board(), depth)
        seconds = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            json.dumps(
                {
                    "case": "xiangqi_perft",
                    "depth": depth,
                    "nodes": nodes,
                    "correct": nodes == expected,
                    "seconds": round(seconds, 3),
                    "nodes_per_second": round(nodes / seconds),
                    "peak_memory_mb": round(peak_mb, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
