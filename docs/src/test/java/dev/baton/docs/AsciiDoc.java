package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ids an AsciiDoc document will have once Asciidoctor renders it, read from its source: explicit anchors
 * ({@code [[id]]}, {@code [[id,text]]}, {@code [#id]}, {@code [#id.role]}, {@code anchor:id[]}) and the ids of
 * sections without one, generated as Asciidoctor does from the title with the document's {@code idprefix} and
 * {@code idseparator} (defaults {@code _} and {@code _}; a repeated id gets {@code <sep>2}, {@code <sep>3}, …).
 * {@code include::file[]} lines are followed, so the ids of a book's chapters are the book's ids.
 */
final class AsciiDoc {

    private static final Pattern INCLUDE = Pattern.compile("^include::([^\\[]+)\\[.*]\\s*$");
    private static final Pattern ATTRIBUTE = Pattern.compile("^:([A-Za-z0-9_-]+):\\s*(.*?)\\s*$");
    private static final Pattern INLINE_ANCHOR = Pattern.compile("\\[\\[([A-Za-z_:][\\w:.-]*)(?:,[^\\]]*)?]]");
    private static final Pattern MACRO_ANCHOR = Pattern.compile("anchor:([A-Za-z_:][\\w:.-]*)\\[");
    private static final Pattern BLOCK_ID = Pattern.compile("^\\[(?:[A-Za-z0-9_-]*)#([A-Za-z_:][\\w:-]*)[^\\]]*]\\s*$");
    private static final Pattern BLOCK_ANCHOR = Pattern.compile("^\\[\\[([A-Za-z_:][\\w:.-]*)(?:,[^\\]]*)?]]\\s*$");
    private static final Pattern BLOCK_ATTRIBUTES = Pattern.compile("^\\[[^\\[].*]\\s*$");
    private static final Pattern SECTION = Pattern.compile("^(={2,6})\\s+(\\S.*?)\\s*=*\\s*$");
    private static final Pattern DELIMITER = Pattern.compile("^(-{4,}|\\.{4,}|/{4,}|\\+{4,})\\s*$");
    private static final Pattern INVALID_ID_CHARS = Pattern.compile(
            "<[^>]+>|&(?:[a-z][a-z]+\\d{0,2}|#\\d\\d\\d{0,4}|#x[\\da-f][\\da-f][\\da-f]{0,3});|[^ \\w\\-.]+?",
            Pattern.UNICODE_CHARACTER_CLASS);

    private AsciiDoc() {}

    /** The ids of the document, its includes' included. */
    static Set<String> anchors(Path document) {
        Map<String, String> attributes = new HashMap<>();
        Set<String> ids = new LinkedHashSet<>();
        read(document, attributes, ids, 0);
        return ids;
    }

    private static void read(Path file, Map<String, String> attributes, Set<String> ids, int depth) {
        if (depth > 16) {
            throw new IllegalStateException("includes nested more than 16 deep at " + file);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String pendingId = null;
        String delimiter = null;
        for (String line : lines) {
            if (delimiter != null) {
                if (line.strip().equals(delimiter)) {
                    delimiter = null;
                }
                continue;
            }
            Matcher delimited = DELIMITER.matcher(line);
            if (delimited.matches()) {
                delimiter = delimited.group(1);
                pendingId = null;
                continue;
            }
            if (line.startsWith("//")) {
                continue;
            }
            Matcher include = INCLUDE.matcher(line);
            if (include.matches()) {
                Path included = file.resolveSibling(include.group(1).strip()).normalize();
                if (Files.isRegularFile(included)) {
                    read(included, attributes, ids, depth + 1);
                }
                pendingId = null;
                continue;
            }
            Matcher attribute = ATTRIBUTE.matcher(line);
            if (attribute.matches()) {
                attributes.put(attribute.group(1), attribute.group(2));
                continue;
            }
            Matcher blockAnchor = BLOCK_ANCHOR.matcher(line);
            Matcher blockId = BLOCK_ID.matcher(line);
            if (blockAnchor.matches() || blockId.matches()) {
                pendingId = blockAnchor.matches() ? blockAnchor.group(1) : blockId.group(1);
                ids.add(pendingId);
                continue;
            }
            if (BLOCK_ATTRIBUTES.matcher(line).matches()) {
                continue;
            }
            Matcher section = SECTION.matcher(line);
            if (section.matches() && pendingId == null) {
                ids.add(unique(sectionId(section.group(2), attributes), attributes, ids));
            }
            pendingId = null;
            collect(INLINE_ANCHOR, line, ids);
            collect(MACRO_ANCHOR, line, ids);
        }
    }

    private static void collect(Pattern pattern, String line, Set<String> ids) {
        Matcher matcher = pattern.matcher(line);
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
    }

    /** Asciidoctor's id for a section title: its text lower-cased, invalid characters dropped, separators folded. */
    static String sectionId(String title, Map<String, String> attributes) {
        String prefix = attributes.getOrDefault("idprefix", "_");
        String separator = attributes.getOrDefault("idseparator", "_");
        // the title as rendered text: inline formatting marks do not reach the id
        String text = title.replaceAll("[`*+]", "").toLowerCase(Locale.ROOT);
        String id = prefix + INVALID_ID_CHARS.matcher(text).replaceAll("");
        if (separator.isEmpty()) {
            return id.replace(" ", "");
        }
        String sep = separator.substring(0, 1);
        String folding = sep.equals("-") || sep.equals(".") ? " .-" : " " + sep + ".-";
        StringBuilder folded = new StringBuilder();
        boolean lastWasSeparator = false;
        for (char c : id.toCharArray()) {
            if (folding.indexOf(c) >= 0) {
                if (!lastWasSeparator) {
                    folded.append(sep);
                }
                lastWasSeparator = true;
            } else {
                folded.append(c);
                lastWasSeparator = false;
            }
        }
        String result = folded.toString();
        if (result.endsWith(sep)) {
            result = result.substring(0, result.length() - 1);
        }
        if (prefix.isEmpty() && result.startsWith(sep)) {
            result = result.substring(1);
        }
        return result;
    }

    private static String unique(String id, Map<String, String> attributes, Set<String> ids) {
        if (!ids.contains(id)) {
            return id;
        }
        String separator = attributes.getOrDefault("idseparator", "_");
        String sep = separator.isEmpty() ? "" : separator.substring(0, 1);
        int count = 2;
        while (ids.contains(id + sep + count)) {
            count++;
        }
        return id + sep + count;
    }
}
