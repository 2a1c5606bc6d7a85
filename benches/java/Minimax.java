// Minimax.java: the Java baseline's search, the recursive minimax of handout section 7 exactly
// as given there (no pruning, no move ordering, no caching), on a board the caller owns. Replies
// are played and taken back on that one board, so a search allocates nothing.

final class Minimax {
    private Minimax() {}

    /**
     * value(m, d) of the checker just dropped at (row, col), to the player who dropped it:
     * +infinity if it makes four, its heuristic when d is 0, 0 if it filled the board, else the
     * minimum over the opponent's replies r of -value(r, d - 1). The board is left as it was.
     */
    static int value(Board board, int row, int col, int depth) {
        if (board.wins(row, col)) {
            return Board.INF;
        }
        if (depth == 0) {
            return board.heuristic(row, col);
        }
        if (board.isFull()) {
            return 0;
        }
        char opponent = Board.opponent(board.at(row, col));
        int worst = Board.INF;
        for (int c = 0; c < board.cols; c++) {
            if (board.isColumnFull(c)) {
                continue;
            }
            int r = board.drop(c, opponent);
            int v = -value(board, r, c, depth - 1);
            board.undo(c);
            worst = Math.min(worst, v);
        }
        return worst;
    }
}
