package dev.baton.impl.jaxrs;

import dev.baton.impl.runtime.OptionalApis;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A flat JSON object of strings and numbers, in the order its members were added: built with JSON-P
 * where the server has it (a provider that can be found), else written here with a complete escaper.
 */
final class ProblemBody {

    /** Whether JSON-P is on the class path, looked up once. */
    private static final boolean JSON_P = OptionalApis.present("jakarta.json.Json", ProblemBody.class.getClassLoader());

    private final Map<String, Object> members = new LinkedHashMap<>();

    ProblemBody put(String name, String value) {
        members.put(name, value);
        return this;
    }

    ProblemBody put(String name, long value) {
        members.put(name, value);
        return this;
    }

    /** @return the JSON text, by JSON-P when it is present and has a provider */
    String toJson() {
        if (JSON_P) {
            try {
                return JsonP.write(members);
            } catch (RuntimeException | LinkageError e) {
                // the API without a provider (jakarta.json.JsonException), or a broken one: write it ourselves
            }
        }
        return written(members);
    }

    /** Writes the members without JSON-P. */
    static String written(Map<String, Object> members) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> member : members.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            quote(member.getKey(), out).append(':');
            if (member.getValue() instanceof String text) {
                quote(text, out);
            } else {
                out.append(member.getValue());
            }
        }
        return out.append('}').toString();
    }

    /** RFC 8259 §7: quote, backslash and the control characters escaped; everything else as it is. */
    private static StringBuilder quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /** The JSON-P calls, in a class of their own: loaded only where JSON-P is present. */
    private static final class JsonP {
        static String write(Map<String, Object> members) {
            jakarta.json.JsonObjectBuilder builder = jakarta.json.Json.createObjectBuilder();
            members.forEach((name, value) -> {
                if (value instanceof String text) {
                    builder.add(name, text);
                } else {
                    builder.add(name, ((Number) value).longValue());
                }
            });
            return builder.build().toString();
        }
    }
}
