// Board.java: the Java baseline's Connect Four board, a char[][] grid (row 0 at the top) with the
// number of checkers in each column beside it, so that dropping a checker and taking it back
// (make/unmake) cost O(1) and the search allocates nothing. It also knows four in a row and the
// 1/4/32 heuristic of handout section 8, both looking only at the lines through the new checker.

final class Board {
    static final char EMPTY = '.';
    static final char RED = 'R';
    static final char BLACK = 'B';

    /** The value of a win, +infinity; -INF never overflows when negated. */
    static final int INF = Integer.MAX_VALUE;

    /** What a window (or the column run) adds for 0, 1, 2 or 3 of the mover's checkers. */
    private static final int[] POINTS = {0, 1, 4, 32};

    /** Row and column steps of the heuristic's windows: row, falling and rising diagonal. */
    private static final int[] WINDOW_ROW_STEP = {0, 1, -1};
    private static final int[] WINDOW_COL_STEP = {1, 1, 1};

    final int rows;
    final int cols;
    private final char[][] grid;
    /** How many checkers each column holds: the next one lands in row rows - 1 - height. */
    private final int[] height;
    private int checkers;

    /** An empty board. */
    Board(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
        grid = new char[rows][cols];
        for (char[] row : grid) {
            java.util.Arrays.fill(row, EMPTY);
        }
        height = new int[cols];
    }

    /** A copy sharing nothing with `other`, so that another thread can search on it. */
    Board(Board other) {
        rows = other.rows;
        cols = other.cols;
        grid = new char[rows][];
        for (int r = 0; r < rows; r++) {
            grid[r] = other.grid[r].clone();
        }
        height = other.height.clone();
        checkers = other.checkers;
    }

    static char opponent(char player) {
        return player == RED ? BLACK : RED;
    }

    char at(int row, int col) {
        return grid[row][col];
    }

    boolean isFull() {
        return checkers == rows * cols;
    }

    boolean isColumnFull(int col) {
        return height[col] == rows;
    }

    /** Drops `player`'s checker in `col`, which must not be full; returns the row it lands in. */
    int drop(int col, char player) {
        int row = rows - 1 - height[col];
        grid[row][col] = player;
        height[col]++;
        checkers++;
        return row;
    }

    /** Takes back the top checker of `col`: the inverse of drop. */
    void undo(int col) {
        height[col]--;
        checkers--;
        grid[rows - 1 - height[col]][col] = EMPTY;
    }

    /** Row `row` as the protocol's `board` prints it. */
    String line(int row) {
        return new String(grid[row]);
    }

    private boolean inside(int row, int col) {
        return row >= 0 && row < rows && col >= 0 && col < cols;
    }

    /** How many of `me`'s checkers follow (row, col) in a line, stepping by (dr, dc). */
    private int run(int row, int col, int dr, int dc, char me) {
        int n = 0;
        for (int r = row + dr, c = col + dc; inside(r, c) && grid[r][c] == me; r += dr, c += dc) {
            n++;
        }
        return n;
    }

    /** Whether the checker at (row, col) is part of four or more in a row of its colour. */
    boolean wins(int row, int col) {
        char me = grid[row][col];
        if (run(row, col, 1, 0, me) >= 3) {
            return true;
        }
        for (int d = 0; d < WINDOW_ROW_STEP.length; d++) {
            int dr = WINDOW_ROW_STEP[d];
            int dc = WINDOW_COL_STEP[d];
            if (1 + run(row, col, dr, dc, me) + run(row, col, -dr, -dc, me) >= 4) {
                return true;
            }
        }
        return false;
    }

    /**
     * The heuristic of the checker just dropped at (row, col), for its owner: each window of four
     * along the row and both diagonals that contains it, lies on the board and holds none of the
     * opponent's checkers adds 1, 4 or 32 for 1, 2 or 3 of the owner's; the run straight down
     * adds the same when there is room above it to reach four; four in a row is INF.
     */
    int heuristic(int row, int col) {
        char me = grid[row][col];
        int total = 0;
        for (int d = 0; d < WINDOW_ROW_STEP.length; d++) {
            int dr = WINDOW_ROW_STEP[d];
            int dc = WINDOW_COL_STEP[d];
            for (int start = -3; start <= 0; start++) {
                int r0 = row + start * dr;
                int c0 = col + start * dc;
                if (!inside(r0, c0) || !inside(r0 + 3 * dr, c0 + 3 * dc)) {
                    continue;
                }
                int mine = 0;
                boolean blocked = false;
                for (int k = 0; k < 4 && !blocked; k++) {
                    char cell = grid[r0 + k * dr][c0 + k * dc];
                    if (cell == me) {
                        mine++;
                    } else if (cell != EMPTY) {
                        blocked = true;
                    }
                }
                if (blocked) {
                    continue;
                }
                if (mine == 4) {
                    return INF;
                }
                total += POINTS[mine];
            }
        }
        int n = 1 + run(row, col, 1, 0, me);
        if (n >= 4) {
            return INF;
        }
        if (n + row >= 4) {
            total += POINTS[n];
        }
        return total;
    }
}
