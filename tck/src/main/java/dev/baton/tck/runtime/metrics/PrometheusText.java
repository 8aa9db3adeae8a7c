package dev.baton.tck.runtime.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (format 0.0.4, as {@code /metrics} of MicroProfile Metrics 5
 * servers answers; the sample lines of OpenMetrics text too): {@code # HELP}/{@code # TYPE} lines and blank
 * lines are skipped, each other line is {@code name{label="value",...} value [timestamp]}, label values with
 * the escapes {@code \\}, {@code \"} and {@code \n}, values as Go writes floats ({@code +Inf}, {@code -Inf},
 * {@code NaN} included).
 */
public final class PrometheusText {

    /**
     * One sample line.
     *
     * @param name the metric (family) name with any suffix ({@code _total}, {@code _count}, ...)
     * @param labels its labels, in the order written
     * @param value its value
     */
    public record Sample(String name, Map<String, String> labels, double value) {

        /** @return whether every given label has the given value here (others may be present) */
        public boolean has(Map<String, String> wanted) {
            return wanted.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        }
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    /**
     * @param exposition the text of a scrape
     * @return its samples
     * @throws IllegalArgumentException naming the line and what is wrong with it, for a line that is not a sample
     */
    public static PrometheusText parse(String exposition) {
        List<Sample> samples = new ArrayList<>();
        String[] lines = exposition.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                samples.add(new LineParser(line).sample());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "line " + (i + 1) + " of the exposition is not a sample (" + e.getMessage() + "): " + line, e);
            }
        }
        return new PrometheusText(Collections.unmodifiableList(samples));
    }

    /** @return every sample, in the order of the text */
    public List<Sample> samples() {
        return samples;
    }

    /**
     * The value of a counter, whichever way the server names it: {@code name} or {@code name_total} (OpenMetrics
     * and Micrometer add the suffix), summed over the samples that carry the given labels (0 when none does).
     *
     * @param name the counter's name in Prometheus form ({@code baton_lock_acquisitions})
     * @param labels labels the samples must carry, e.g. the manager and the outcome
     * @return the sum
     */
    public double counter(String name, Map<String, String> labels) {
        String total = name + "_total";
        return samples.stream()
                .filter(s -> (s.name().equals(name) || s.name().equals(total)) && s.has(labels))
                .mapToDouble(Sample::value)
                .sum();
    }

    /**
     * @param name a sample name exactly ({@code baton_locks_held}, {@code baton_lock_wait_duration_seconds_count})
     * @param labels labels the samples must carry
     * @return the matching samples
     */
    public List<Sample> find(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.has(labels))
                .toList();
    }

    /** Reads one sample line, left to right. */
    private static final class LineParser {
        private final String line;
        private int at;

        LineParser(String line) {
            this.line = line;
        }

        Sample sample() {
            String name = name("metric name");
            Map<String, String> labels = new LinkedHashMap<>();
            if (at < line.length() && line.charAt(at) == '{') {
                at++;
                labels(labels);
            }
            String[] rest = line.substring(at).strip().split("\\s+");
            if (rest.length < 1 || rest[0].isEmpty() || rest.length > 2) {
                throw new IllegalArgumentException("expected a value and at most a timestamp after the labels");
            }
            return new Sample(name, Collections.unmodifiableMap(labels), value(rest[0]));
        }

        private void labels(Map<String, String> labels) {
            skipSpaces();
            while (peek() != '}') {
                String label = name("label name");
                skipSpaces();
                expect('=');
                skipSpaces();
                expect('"');
                if (labels.put(label, quoted()) != null) {
                    throw new IllegalArgumentException("label " + label + " twice");
                }
                skipSpaces();
                if (peek() == ',') {
                    at++;
                    skipSpaces();
                } else if (peek() != '}') {
                    throw new IllegalArgumentException("expected ',' or '}' at column " + (at + 1));
                }
            }
            at++;
        }

        private String name(String what) {
            int start = at;
            while (at < line.length() && isNameChar(line.charAt(at), at == start)) {
                at++;
            }
            if (at == start) {
                throw new IllegalArgumentException("expected a " + what + " at column " + (start + 1));
            }
            return line.substring(start, at);
        }

        private static boolean isNameChar(char c, boolean first) {
            return c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c == '_'
                    || c == ':'
                    || !first && c >= '0' && c <= '9';
        }

        /** A label value after its opening quote, up to and past its closing quote. */
        private String quoted() {
            StringBuilder value = new StringBuilder();
            while (true) {
                char c = next("an unterminated label value");
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\') {
                    char escaped = next("an unterminated escape");
                    switch (escaped) {
                        case '\\' -> value.append('\\');
                        case '"' -> value.append('"');
                        case 'n' -> value.append('\n');
                        default ->
                            throw new IllegalArgumentException("unknown escape \\" + escaped + " at column " + at);
                    }
                } else {
                    value.append(c);
                }
            }
        }

        private static double value(String text) {
            return switch (text) {
                case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> {
                    try {
                        yield Double.parseDouble(text);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("the value '" + text + "' is not a number", e);
                    }
                }
            };
        }

        private char peek() {
            if (at >= line.length()) {
                throw new IllegalArgumentException("the labels are not closed with '}'");
            }
            return line.charAt(at);
        }

        private char next(String unexpectedEnd) {
            if (at >= line.length()) {
                throw new IllegalArgumentException(unexpectedEnd);
            }
            return line.charAt(at++);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + (at + 1));
            }
            at++;
        }

        private void skipSpaces() {
            while (at < line.length() && line.charAt(at) == ' ') {
                at++;
            }
        }
    }
}
