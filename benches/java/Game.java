// Game.java: one game of the Java baseline: the board, whose turn it is, how it ended, and the
// computer player, whose root columns are valued in parallel on a fixed pool of THREADS worker
// threads created once with the game (handout sections 4, 7 and 9). Each root column is one task
// with its own copy of the board; the values are collected by column, so they never depend on
// the number of threads. Refusals come in the handout's order: game over, then the column.

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

final class Game implements AutoCloseable {
    /** A command the game refuses; the message is the protocol's failure text. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private final int rows;
    private final int cols;
    private final int depth;
    private final ExecutorService pool;
    private final Random random = new Random();
    /** The result of a game that filled the board without four in a row. */
    private static final char TIE = 'T';

    private Board board;
    private char turn;
    /** RED or BLACK once one has won, TIE for a full board, 0 while the game goes on. */
    private char result;

    /** A game with `first` (RED or BLACK) to move, or a random first player when it is 0. */
    Game(int rows, int cols, int depth, int threads, char first) {
        this.rows = rows;
        this.cols = cols;
        this.depth = depth;
        pool = Executors.newFixedThreadPool(threads);
        restart(first);
    }

    /** Starts again on an empty board; `first` as for the constructor. */
    void restart(char first) {
        board = new Board(rows, cols);
        result = 0;
        if (first == 0) {
            first = random.nextBoolean() ? Board.RED : Board.BLACK;
        }
        turn = first;
    }

    int depth() {
        return depth;
    }

    /** The protocol's name for a player, for the game's result, or "none" for 0. */
    private static String name(char who) {
        switch (who) {
            case Board.RED:
                return "red";
            case Board.BLACK:
                return "black";
            case TIE:
                return "tie";
            default:
                return "none";
        }
    }

    /** The player to move, or "none" once the game is over. */
    String turn() {
        return name(result == 0 ? turn : 0);
    }

    /** How the game ended: "red", "black", "tie", or "none" while it goes on. */
    String winner() {
        return name(result);
    }

    Board board() {
        return board;
    }

    /** Refuses a move in `col` that is not allowed, in the handout's order. */
    private void checkMove(long col) throws Refused {
        if (result != 0) {
            throw new Refused("game over");
        }
        if (col < 0 || col >= cols) {
            throw new Refused("illegal column");
        }
        if (board.isColumnFull((int) col)) {
            throw new Refused("column full");
        }
    }

    /** The player to move drops in `col`; returns the row the checker lands in. */
    int play(long col) throws Refused {
        checkMove(col);
        int row = board.drop((int) col, turn);
        if (board.wins(row, (int) col)) {
            result = turn;
        } else if (board.isFull()) {
            result = TIE;
        }
        turn = Board.opponent(turn);
        return row;
    }

    /** The heuristic of the player to move dropping in `col`; the board does not change. */
    int heuristic(long col) throws Refused {
        checkMove(col);
        int row = board.drop((int) col, turn);
        int value = board.heuristic(row, (int) col);
        board.undo((int) col);
        return value;
    }

    /**
     * Every column's value for the player to move, searched `plies` beyond the move, null for a
     * full column. One task per open column on the pool, each on its own copy of the board.
     */
    Integer[] scores(int plies) throws Refused {
        if (result != 0) {
            throw new Refused("game over");
        }
        List<Future<Integer>> tasks = new ArrayList<>(cols);
        for (int col = 0; col < cols; col++) {
            if (board.isColumnFull(col)) {
                tasks.add(null);
                continue;
            }
            Board copy = new Board(board);
            char mover = turn;
            int c = col;
            tasks.add(pool.submit(() -> Minimax.value(copy, copy.drop(c, mover), c, plies)));
        }
        Integer[] values = new Integer[cols];
        for (int col = 0; col < cols; col++) {
            if (tasks.get(col) != null) {
                values[col] = result(tasks.get(col));
            }
        }
        return values;
    }

    /** A task's value, waiting for it; a task that failed is a bug, reported as such. */
    private static int result(Future<Integer> task) {
        try {
            return task.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a search task failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the search", e);
        }
    }

    /** The computer plays a column of highest value (a random one of them) and returns it. */
    int genmove() throws Refused {
        Integer[] values = scores(depth);
        List<Integer> best = new ArrayList<>();
        int top = -Board.INF;
        for (int col = 0; col < cols; col++) {
            if (values[col] == null || values[col] < top) {
                continue;
            }
            if (values[col] > top) {
                top = values[col];
                best.clear();
            }
            best.add(col);
        }
        int col = best.get(random.nextInt(best.size()));
        play(col);
        return col;
    }

    /** Stops the worker threads. */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
