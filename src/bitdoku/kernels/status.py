"""Status codes, rule flags and stats slots shared by the kernels and the Python side.

Plain ``int`` module constants, so Numba freezes them into the compiled code and Python code can wrap them in an
``IntEnum`` without importing Numba.
"""

# Status codes: what a search returns.
#: The search space was exhausted; ``stats[STAT_SOLUTIONS]`` says how many solutions (0, 1, ...) exist.
COMPLETE = 0
#: ``limit`` solutions were found and the search stopped there; more may exist.
LIMIT_REACHED = 1
#: The node budget ran out first; ``stats`` holds what was found so far.
BUDGET_EXHAUSTED = 2
#: The givens break the rules on their own: a digit twice in a unit, or a value outside 0..N.
INVALID = 3
#: The givens leave an empty cell with no candidate (its peers' givens hold every digit); no search was run.
#: It means zero solutions, like ``COMPLETE`` with ``stats[STAT_SOLUTIONS] == 0``, but says why.
CONTRADICTION = 4
#: The caller's stop flag (an ``int64[1]`` array, ``stop[0] != 0``) was set while the search ran: a time limit ran
#: out on another thread, or another member of a portfolio has the answer. ``stats`` holds what was found so far.
STOPPED = 5

STATUS_NAMES = ("COMPLETE", "LIMIT_REACHED", "BUDGET_EXHAUSTED", "INVALID", "CONTRADICTION", "STOPPED")

# Rule flags: which deductions run at every node (a bit set).
#: An empty cell with one candidate takes it.
NAKED_SINGLES = 1
#: A digit with one place left in a unit goes there.
HIDDEN_SINGLES = 2
#: Pointing and claiming: a digit confined to a box-line intersection leaves the rest of the other unit.
LOCKED_CANDIDATES = 4
ALL_RULES = NAKED_SINGLES | HIDDEN_SINGLES | LOCKED_CANDIDATES
#: Not a rule: forces the generic search for a 9x9 grid, so benchmarks can measure the specialised path.
GENERIC_ONLY = 8
#: Not a rule: branch on a random cell among those with the fewest candidates and try its digits in random order
#: (the generic search only; the generator fills random grids with it).
RANDOM_ORDER = 16
#: Not a rule: run the generic search's rules by scanning every unit on every pass (the slow twin of the
#: incremental propagation, kept to check it: both reach the same fixpoint, so they visit the same nodes).
FULL_SCAN = 32
#: Not a rule: a first-solution search (limit 1) on the bitboard kernel runs as one depth-first search, without
#: restarts (``boards.first_solution``); the tests use it to compare node counts with the cell-by-cell kernel.
NO_RESTARTS = 64
#: A rule of the bitboard kernel only (other kernels ignore it): naked pairs in rows, columns and boxes, hidden
#: pairs in rows and columns. Off in ``ALL_RULES`` (the kernels must visit the same nodes there); the restarted
#: first-solution search adds it to the three rules from N = 25 (``boards.PAIRS_FROM_N``; NOTES-kernels.md, round 7).
PAIRS = 128
#: The runs of a restarted first-solution search branch by dom/wdeg: the cell with the fewest candidates per
#: conflict weight of its units, the weights kept from run to run (Boussemart et al. 2004). Off in exhaustive
#: searches; ``boards.first_solution`` adds it from N = 25 (``boards.WEIGHTS_FROM_N``; results/tail25.md).
WEIGHTED = 256
#: Never ``WEIGHTED``: the restarted runs branch by plain MRV, as before issue 12's tail work (A/B benchmarks).
NO_WEIGHTS = 512

# Stats slots: indices into the int64 stats out-array.
#: Solutions found (at most ``limit``).
STAT_SOLUTIONS = 0
#: Search states visited: the root plus every candidate tried at a branch point.
STAT_NODES = 1
#: Branch points: cells chosen for branching that had two or more candidates.
STAT_GUESSES = 2
#: Dead ends: candidates tried whose propagation ran into a contradiction.
STAT_BACKTRACKS = 3
#: Deepest stack of open branch points.
STAT_MAX_DEPTH = 4
#: Cells filled by propagation (naked and hidden singles), over the whole search.
STAT_PLACEMENTS = 5
#: 1 when the specialised 9x9 kernel ran, 0 for the generic one.
STAT_SPECIALISED = 6
#: Restarts of a first-solution search on the bitboard kernel (its runs after the first).
STAT_RESTARTS = 7
N_STATS = 8

STAT_NAMES = ("solutions", "nodes", "guesses", "backtracks", "max_depth", "placements", "specialised", "restarts")

# Slots of a batch loop's ``stop`` array (``kernels/batch.py``, ``bitdoku.timelimit.RowClock``).
#: The stop flag every search reads: a row's ticket stops that row, -1 every row left.
STOP_FLAG = 0
#: The ticket of the row being searched, raised by one as each row starts.
STOP_TICKET = 1
