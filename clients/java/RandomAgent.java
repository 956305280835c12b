// A random player for every arbiter game, in Java: one file, no library, Java 11 or later.
//
// Run it without compiling: `java clients/java/RandomAgent.java` (Java runs a single source
// file directly), e.g. in an agent file:
//
//     [[agent]]
//     name = "java-random"
//     command = ["java", "../clients/java/RandomAgent.java"]
//
// It speaks arbiter's protocol 1 (docs/protocol.md): one JSON object per line on stdin and
// stdout. Replace choose() with your own agent; the position is in request.get("position")
// in the game's JSON form. Print debugging output to System.err, never to System.out.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class RandomAgent {
    private static Random random = new Random(0);

    /** The move to play: here a seeded random legal move. */
    static String choose(Map<String, Object> request, List<Object> legal) {
        return (String) legal.get(random.nextInt(legal.size()));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> message;
            try {
                message = Json.object(line);
            } catch (IllegalArgumentException e) {
                System.err.println("skipped a line that is not JSON: " + e.getMessage());
                continue;
            }
            Object type = message.get("type");
            if ("hello".equals(type)) {
                random = new Random(seed(message));
                send("{\"type\":\"ready\",\"name\":\"java random\",\"protocol\":1}");
            } else if ("new_game".equals(type)) {
                random = new Random(seed(message));
            } else if ("ping".equals(type)) {
                send("{\"type\":\"pong\",\"id\":" + Json.write(message.get("id")) + "}");
            } else if ("move".equals(type)) {
                @SuppressWarnings("unchecked")
                List<Object> legal = (List<Object>) message.get("legal");
                String move = choose(message, legal);
                send("{\"type\":\"move\",\"move\":" + Json.write(move) + "}");
            } else if ("quit".equals(type)) {
                return;
            }
        }
    }

    /** The seed arbiter sent (an unsigned 64-bit number), folded into Java's long. */
    static long seed(Map<String, Object> message) {
        Object seed = message.get("seed");
        return seed instanceof Literal ? Long.parseUnsignedLong(((Literal) seed).text) : 0L;
    }

    static void send(String json) {
        System.out.println(json);
        System.out.flush();
    }

    /** Just enough JSON: objects, arrays, strings, numbers (kept as their text), true,
     * false and null. */
    static final class Json {
        private final String text;
        private int at;

        private Json(String text) {
            this.text = text;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.space();
            if (!(value instanceof Map) || json.at != text.length()) {
                throw new IllegalArgumentException("expected one JSON object");
            }
            return (Map<String, Object>) value;
        }

        static String write(Object value) {
            if (value == null) {
                return "null";
            }
            if (!(value instanceof String)) {
                return value.toString();
            }
            StringBuilder out = new StringBuilder("\"");
            for (char c : ((String) value).toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            return out.append('"').toString();
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private char peek() {
            space();
            if (at >= text.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            return text.charAt(at);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + at);
            }
            at++;
        }

        private Object value() {
            char c = peek();
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                at++;
                if (peek() == '}') {
                    at++;
                    return map;
                }
                while (true) {
                    String key = string();
                    expect(':');
                    map.put(key, value());
                    if (peek() == ',') {
                        at++;
                    } else {
                        expect('}');
                        return map;
                    }
                }
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                at++;
                if (peek() == ']') {
                    at++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    if (peek() == ',') {
                        at++;
                    } else {
                        expect(']');
                        return list;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            int start = at;
            while (at < text.length() && "{}[],: \t\r\n\"".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            String word = text.substring(start, at);
            if (word.equals("null")) {
                return null;
            }
            if (word.isEmpty()) {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + start);
            }
            // Numbers and true/false kept as text (a seed does not fit a double).
            return new Literal(word);
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw new IllegalArgumentException("unterminated string");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n': out.append('\n'); break;
                    case 't': out.append('\t'); break;
                    case 'r': out.append('\r'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'u':
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                        break;
                    default: out.append(e);
                }
            }
        }
    }

    /** A number, true or false, as written. */
    static final class Literal {
        final String text;

        Literal(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
