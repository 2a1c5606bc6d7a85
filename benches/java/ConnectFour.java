// ConnectFour.java: entry point of the Java baseline that scripts/bench times against the
// reference: a plain, careful student solution of the assignment in Java (char[][] board with
// make/unmake, the handout's minimax, a fixed thread pool over the root columns), speaking the
// grading protocol on standard input and output. The protocol is its only front end.
//
// Usage: java -cp OUT ConnectFour ROWS COLS DEPTH THREADS [--protocol] [--first red|black]
// (--protocol is accepted so that the reference's command line works unchanged.)

import java.io.BufferedReader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

public final class ConnectFour {
    private static final String USAGE =
            "usage: java ConnectFour ROWS COLS DEPTH THREADS [--protocol] [--first red|black]";

    private ConnectFour() {}

    public static void main(String[] args) throws IOException {
        List<String> numbers = new ArrayList<>();
        char first = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--protocol")) {
                continue;
            }
            if (args[i].equals("--first")) {
                first = i + 1 < args.length ? player(args[++i]) : 0;
                if (first == 0) {
                    fail("--first needs red or black");
                }
            } else if (args[i].startsWith("--")) {
                fail("unknown option " + args[i]);
            } else {
                numbers.add(args[i]);
            }
        }
        if (numbers.size() != 4) {
            fail("expected four numbers: ROWS COLS DEPTH THREADS");
        }
        int rows = number(numbers.get(0), "ROWS", 1, 32);
        int cols = number(numbers.get(1), "COLS", 1, 32);
        int depth = number(numbers.get(2), "DEPTH", 0, 64);
        int threads = number(numbers.get(3), "THREADS", 1, 256);

        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out =
                new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.UTF_8);
        try (Game game = new Game(rows, cols, depth, threads, first)) {
            new Protocol(game, out).serve(in);
        }
    }

    /** RED or BLACK for a player's name in any case, 0 for anything else. */
    static char player(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "red":
                return Board.RED;
            case "black":
                return Board.BLACK;
            default:
                return 0;
        }
    }

    /** A command-line number from `low` to `high`; anything else ends the program. */
    private static int number(String text, String name, int low, int high) {
        Long value = Protocol.wholeNumber(text);
        if (value == null || value < low || value > high) {
            fail(name + " must be a whole number from " + low + " to " + high + ", not " + text);
        }
        return value.intValue();
    }

    /** Reports a bad command line on standard error and exits with status 2. */
    private static void fail(String message) {
        System.err.println("error: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
