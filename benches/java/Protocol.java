// Protocol.java: the Java baseline's side of the grading protocol (handout section 11), so that
// it can be driven and timed exactly like the reference. One command per line; blank lines and
// lines starting with `#` get no answer; every other line gets `= payload` or `? failure`, the
// rows for `board`, then one empty line, flushed at once. A malformed line is refused here,
// before the game is asked; `quit` and the end of input end the session.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.regex.Pattern;

final class Protocol {
    private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+");
    private static final int MAX_DEPTH = 64;

    private final Game game;
    private final PrintStream out;

    Protocol(Game game, PrintStream out) {
        this.game = game;
        this.out = out;
    }

    /**
     * `text` as a whole number, clamped to the range of a long, or null if it is not one. Shared
     * with the command line, whose numbers follow the same rule.
     */
    static Long wholeNumber(String text) {
        String trimmed = text.strip();
        if (!WHOLE_NUMBER.matcher(trimmed).matches()) {
            return null;
        }
        BigInteger value = new BigInteger(trimmed);
        BigInteger limit = BigInteger.valueOf(Long.MAX_VALUE);
        return value.max(limit.negate()).min(limit).longValue();
    }

    /** Answers every command from `in` until `quit` or the end of input. */
    void serve(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            String[] words = text.split("\\s+");
            String command = words[0].toLowerCase(Locale.ROOT);
            String argument = words.length > 1 ? words[1] : null;
            String answer;
            if (words.length > 2) {
                answer = "? unknown command";
            } else {
                try {
                    answer = "=" + answer(command, argument);
                } catch (Game.Refused refused) {
                    answer = "? " + refused.getMessage();
                }
            }
            out.print(answer + "\n\n");
            out.flush();
            if (command.equals("quit") && argument == null) {
                return;
            }
        }
    }

    /** The success answer to one command, after the `=`; a refusal is thrown. */
    private String answer(String command, String argument) throws Game.Refused {
        switch (command) {
            case "new":
                return " " + restart(argument);
            case "play":
                return " " + game.play(column(argument));
            case "heuristic":
                return " " + value(game.heuristic(column(argument)));
            case "scores":
                return " " + scores(game.scores(argument == null ? game.depth() : depth(argument)));
            default:
                break;
        }
        if (argument != null) {
            throw new Game.Refused("unknown command");
        }
        switch (command) {
            case "turn":
                return " " + game.turn();
            case "winner":
                return " " + game.winner();
            case "genmove":
                return " " + game.genmove();
            case "board":
                StringBuilder rows = new StringBuilder();
                for (int row = 0; row < game.board().rows; row++) {
                    rows.append('\n').append(game.board().line(row));
                }
                return rows.toString();
            case "quit":
                return "";
            default:
                throw new Game.Refused("unknown command");
        }
    }

    private String restart(String argument) throws Game.Refused {
        char first = 0;
        if (argument != null) {
            first = ConnectFour.player(argument);
            if (first == 0) {
                throw new Game.Refused("illegal player");
            }
        }
        game.restart(first);
        return game.turn();
    }

    /** The column an argument names; missing or not a whole number >= 0 is refused. */
    private static long column(String argument) throws Game.Refused {
        Long col = argument == null || argument.startsWith("-") ? null : wholeNumber(argument);
        if (col == null) {
            throw new Game.Refused("illegal column");
        }
        return col;
    }

    /** The depth an argument names, 0 to 64; anything else is refused. */
    private static int depth(String argument) throws Game.Refused {
        Long depth = wholeNumber(argument);
        if (depth == null || depth < 0 || depth > MAX_DEPTH) {
            throw new Game.Refused("illegal depth");
        }
        return depth.intValue();
    }

    /** A value as the protocol prints it: a whole number, inf or -inf. */
    private static String value(int value) {
        if (value == Board.INF) {
            return "inf";
        }
        return value == -Board.INF ? "-inf" : Integer.toString(value);
    }

    /** Every column's value separated by spaces, `-` for a full column. */
    private static String scores(Integer[] values) {
        StringJoiner line = new StringJoiner(" ");
        for (Integer v : values) {
            line.add(v == null ? "-" : value(v));
        }
        return line.toString();
    }
}
