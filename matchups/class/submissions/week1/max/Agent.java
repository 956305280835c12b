// Max's agent (Java): win, block, else the column nearest the middle. Run by `java Agent.java` (one source file, JDK 11+).
import java.io.*;
import java.util.*;

public class Agent {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rng = new Random(0);
        for (String line; (line = in.readLine()) != null; ) {
            String type = field(line, "type");
            if (type == null) continue;
            switch (type) {
                case "hello" -> System.out.println("{\"type\": \"ready\", \"name\": \"max\", \"protocol\": 2}");
                case "ping" -> System.out.println("{\"type\": \"pong\", \"id\": " + number(line, "id") + "}");
                case "move" -> {
                    List<String> legal = list(line, "legal");
                    List<String> rows = list(line, "board");
                    char me = "P1".equals(field(line, "seat")) ? '1' : '2';
                    System.out.println("{\"type\": \"move\", \"move\": \"" + choose(rows, me, legal) + "\"}");
                }
                case "quit" -> { return; }
                default -> { }
            }
            System.out.flush();
        }
    }

    /** Win now, else block the opponent's win, else the column nearest the middle. */
    static String choose(List<String> rows, char me, List<String> legal) {
        char them = me == '1' ? '2' : '1';
        for (char disc : new char[] {me, them}) {
            for (String column : legal) {
                if (wins(drop(rows, Integer.parseInt(column), disc), disc)) return column;
            }
        }
        double middle = (rows.get(0).length() + 1) / 2.0;
        return legal.stream()
            .min(Comparator.comparingDouble((String c) -> Math.abs(Integer.parseInt(c) - middle)))
            .orElse(legal.get(0));
    }

    static char[][] drop(List<String> rows, int column, char disc) {
        char[][] board = new char[rows.size()][];
        for (int r = 0; r < rows.size(); r++) board[r] = rows.get(r).toCharArray();
        for (char[] row : board) {
            if (row[column - 1] == '0') {
                row[column - 1] = disc;
                break;
            }
        }
        return board;
    }

    static boolean wins(char[][] board, char disc) {
        int[][] directions = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int r = 0; r < board.length; r++) {
            for (int c = 0; c < board[0].length; c++) {
                for (int[] d : directions) {
                    int k = 0;
                    while (k < 4) {
                        int y = r + k * d[0], x = c + k * d[1];
                        if (y < 0 || y >= board.length || x < 0 || x >= board[0].length || board[y][x] != disc) break;
                        k++;
                    }
                    if (k == 4) return true;
                }
            }
        }
        return false;
    }

    /** The string value of a top-level key (enough for arbiter's messages). */
    static String field(String json, String key) {
        int at = json.indexOf("\"" + key + "\"");
        if (at < 0) return null;
        int start = json.indexOf('"', json.indexOf(':', at) + 1);
        return start < 0 ? null : json.substring(start + 1, json.indexOf('"', start + 1));
    }

    static String number(String json, String key) {
        int at = json.indexOf("\"" + key + "\"");
        if (at < 0) return "null";
        int start = json.indexOf(':', at) + 1, end = start;
        while (end < json.length() && ",}".indexOf(json.charAt(end)) < 0) end++;
        return json.substring(start, end).trim();
    }

    static List<String> list(String json, String key) {
        int at = json.indexOf("\"" + key + "\"");
        String inside = json.substring(json.indexOf('[', at) + 1, json.indexOf(']', at));
        List<String> out = new ArrayList<>();
        for (String part : inside.split(",")) {
            String item = part.trim();
            if (item.length() >= 2) out.add(item.substring(1, item.length() - 1));
        }
        return out;
    }
}
