package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Code in documents comes from compiled sources. Every fenced block of Java, XML or properties in a Markdown
 * document is preceded by {@code <!-- snippet: path/from/the/root#region -->} and is exactly that region of that
 * file (see {@link Snippet}); other blocks may carry the marker too, and are held to it. A sample written by hand
 * fails here, and so does a sample its source has moved away from.
 * <p>
 * {@code ./mvnw -pl docs verify -Dbaton.docs.update=true} rewrites every marked block from its source instead
 * (a block without a marker is still reported).
 */
class SnippetsTest {

    /** The languages whose samples must come from a source file. */
    static final Set<String> COMPILED = Set.of("java", "xml", "properties");

    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*snippet:\\s*(\\S+)\\s*-->\\s*$");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([A-Za-z0-9_+-]*).*$");

    @Test
    void everySampleIsARegionOfASourceFile() throws IOException {
        Path root = Documents.root();
        boolean update = Boolean.getBoolean("baton.docs.update");
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path document : Documents.markdown()) {
            String name = root.relativize(document).toString();
            List<String> lines = new ArrayList<>(Files.readAllLines(document));
            boolean changed = false;
            Snippet pending = null;
            int pendingLine = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher marker = MARKER.matcher(line);
                if (marker.matches()) {
                    pending = Snippet.parse(marker.group(1));
                    pendingLine = i + 1;
                    continue;
                }
                Matcher fence = FENCE.matcher(line);
                if (!fence.matches()) {
                    if (!line.isBlank() && pending != null) {
                        problems.add(name + ":" + pendingLine + ": the snippet marker for " + pending
                                + " is not followed by a code block");
                        pending = null;
                    }
                    continue;
                }
                String indent = fence.group(1);
                String delimiter = fence.group(2);
                String language = fence.group(3).toLowerCase();
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().startsWith(delimiter)) {
                    end++;
                }
                if (end == lines.size()) {
                    problems.add(name + ":" + (i + 1) + ": a code block that never closes");
                    break;
                }
                List<String> body = new ArrayList<>();
                for (String content : lines.subList(i + 1, end)) {
                    body.add(
                            content.startsWith(indent)
                                    ? content.substring(indent.length()).stripTrailing()
                                    : content.strip());
                }
                if (pending == null) {
                    if (COMPILED.contains(language)) {
                        problems.add(name + ":" + (i + 1) + ": a " + language
                                + " sample with no <!-- snippet: path#region --> before it");
                    }
                } else {
                    checked++;
                    try {
                        List<String> expected = pending.lines(root);
                        if (!expected.equals(body)) {
                            if (update) {
                                List<String> replacement = expected.stream()
                                        .map(l -> l.isEmpty() ? "" : indent + l)
                                        .toList();
                                lines.subList(i + 1, end).clear();
                                lines.addAll(i + 1, replacement);
                                end = i + 1 + replacement.size();
                                changed = true;
                            } else {
                                problems.add(name + ":" + (i + 1) + ": the sample differs from " + pending
                                        + firstDifference(expected, body));
                            }
                        }
                    } catch (IllegalArgumentException e) {
                        problems.add(name + ":" + pendingLine + ": " + e.getMessage());
                    }
                }
                pending = null;
                i = end;
            }
            if (changed) {
                Files.write(document, lines);
            }
        }
        assertThat(problems)
                .as("samples in documents that are not regions of compiled sources (%d checked)", checked)
                .isEmpty();
        System.out.printf(
                "SnippetsTest: %d samples in %d documents match their sources%n",
                checked, Documents.markdown().size());
    }

    private static String firstDifference(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            String want = i < expected.size() ? expected.get(i) : "<end>";
            String have = i < actual.size() ? actual.get(i) : "<end>";
            if (!want.equals(have)) {
                return "; line " + (i + 1) + " of the region is\n    " + want + "\n  the document has\n    " + have
                        + "\n  (-Dbaton.docs.update=true rewrites it)";
            }
        }
        return "";
    }
}
