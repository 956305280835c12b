// Nia's agent (Java): any legal column. Run by `java Agent.java` (one source file, JDK 11+).
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
                case "hello" -> System.out.println("{\"type\": \"ready\", \"name\": \"nia\", \"protocol\": 2}");
                case "ping" -> System.out.println("{\"type\": \"pong\", \"id\": " + number(line, "id") + "}");
                case "move" -> {
                    List<String> legal = list(line, "legal");
                    System.out.println("{\"type\": \"move\", \"move\": \"" + legal.get(rng.nextInt(legal.size())) + "\"}");
                }
                case "quit" -> { return; }
                default -> { }
            }
            System.out.flush();
        }
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
