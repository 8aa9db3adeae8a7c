package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the links of Markdown documents as GitHub will follow them. A relative link or image must name a file or
 * folder of the repository (not under a {@code target/} folder, not outside the repository, not an absolute path);
 * its {@code #fragment} must exist there: in a {@code .md} file a heading's id (GitHub's slugs) or an
 * {@code <a id>}/{@code <a name>} anchor, in an {@code .adoc} file an anchor or section id (see {@link AsciiDoc}),
 * in a folder the fragment of its {@code README.md}, in any other file a GitHub line anchor ({@code #L12},
 * {@code #L12-L20}) within its length. Web links ({@code http}, {@code https}) are collected, not fetched;
 * {@code mailto:} links are ignored; any other scheme is a problem.
 */
final class LinkChecker extends Checker {

    private static final Pattern LINE_ANCHOR = Pattern.compile("L(\\d+)(?:-L(\\d+))?");

    private final Path root;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    LinkChecker(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Checks every link of these documents; the problems, the web links and the count accumulate. */
    LinkChecker check(List<Path> documents) {
        for (Path path : documents) {
            Path document = path.toAbsolutePath().normalize();
            String name = root.relativize(document).toString();
            for (Markdown.Reference reference : Markdown.references(document)) {
                check(
                        name,
                        reference.line(),
                        reference.destination(),
                        Set.of("mailto"),
                        link -> problem(document, link));
            }
        }
        return this;
    }

    private String problem(Path document, Destination link) {
        if (link.local()) {
            return link.fragment() == null ? "an empty link" : fragmentProblem(document, link.fragment());
        }
        if (link.path().startsWith("/")
                || link.path().startsWith("\\")
                || link.path().startsWith("~")) {
            return "an absolute path: link relative to "
                    + root.relativize(document).getParent();
        }
        Path target = document.getParent().resolve(link.path()).normalize();
        if (!target.startsWith(root)) {
            return "points outside the repository, to " + target;
        }
        Path relative = root.relativize(target);
        for (Path part : relative) {
            if (part.toString().equals("target")) {
                return "points into build output (" + relative + "), which is not in the repository";
            }
        }
        if (!Files.exists(target)) {
            return "no file or folder " + relative;
        }
        return link.fragment() == null ? null : fragmentProblem(target, link.fragment());
    }

    private String fragmentProblem(Path target, String fragment) {
        Path relative = root.relativize(target);
        if (Files.isDirectory(target)) {
            Path readme = target.resolve("README.md");
            if (!Files.isRegularFile(readme)) {
                return "#" + fragment + " in the folder " + relative + ", which has no README.md to hold it";
            }
            target = readme;
            relative = root.relativize(target);
        }
        String file = target.getFileName().toString();
        if (file.endsWith(".md") || file.endsWith(".adoc")) {
            Set<String> ids = anchors.computeIfAbsent(
                    target, t -> file.endsWith(".md") ? Markdown.anchors(t) : AsciiDoc.anchors(t));
            return ids.contains(fragment)
                    ? null
                    : "no anchor #" + fragment + " in " + relative + closest(fragment, ids);
        }
        Matcher lines = LINE_ANCHOR.matcher(fragment);
        if (!lines.matches()) {
            return "#" + fragment + " in " + relative + ": only line anchors (#L12, #L12-L20) can be checked there";
        }
        long length;
        try (var all = Files.lines(target)) {
            length = all.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long last = Long.parseLong(lines.group(2) != null ? lines.group(2) : lines.group(1));
        return last <= length ? null : "#" + fragment + " is past the end of " + relative + " (" + length + " lines)";
    }

    /** A hint: the known id closest to the missing one. */
    private static String closest(String missing, Set<String> ids) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String id : ids) {
            int distance = distance(missing, id);
            if (distance < bestDistance) {
                best = id;
                bestDistance = distance;
            }
        }
        return best != null && bestDistance <= Math.max(3, missing.length() / 3)
                ? " (did you mean #" + best + "?)"
                : "";
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
