#!/usr/bin/env python3
"""ratio-interval.py PLAIN GRID: the grid's cost over the plain map in percent, from two files
of seconds (CPU or wall) with one round per line (the same rounds, in order), as the ratio of the
rounds' sums and a 95% bootstrap interval of it: "+14.4% (95% interval +13.9% to +15.0%)".

Why: one set of rounds' medians moved by a point or more from one set to the next on the same
machine, so a single figure near the target said little about which side of it the grid is.
The interval resamples whole rounds (a round's plain and grid runs share the machine's state),
10,000 times with a fixed seed, so the same rounds always print the same interval."""
import random
import sys

plain = [float(line) for line in open(sys.argv[1]) if line.strip()]
grid = [float(line) for line in open(sys.argv[2]) if line.strip()]
if not plain or len(plain) != len(grid):
    sys.exit(f"ratio-interval.py: {sys.argv[1]} and {sys.argv[2]} must hold the same number of rounds")


def overhead(rounds):
    return (sum(grid[r] for r in rounds) / sum(plain[r] for r in rounds) - 1) * 100


rounds = range(len(plain))
rng = random.Random(18)
draws = sorted(overhead([rng.choice(rounds) for _ in rounds]) for _ in range(10_000))
low, high = draws[249], draws[9_749]
print(f"{overhead(rounds):+.1f}% (95% interval {low:+.1f}% to {high:+.1f}%)")
