package dev.baton.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * Checks a rendered site as a browser will follow it: every {@code href} and {@code src} of every page that is not a
 * web link must name a file inside the site (a folder must have an {@code index.html}), and a fragment into a page
 * must be an {@code id} or {@code name} of that page. Fragments into files that are not pages (a copied source,
 * the PDF) are not checked. Web links ({@code http}, {@code https}) are collected, not fetched; {@code mailto:} and
 * {@code data:} are ignored; any other scheme is a problem.
 */
final class SiteChecker {

    private final Path site;
    private final Map<Path, Set<String>> ids = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<String> external = new TreeSet<>();
    private int checked;

    SiteChecker(Path site) {
        this.site = site.toAbsolutePath().normalize();
    }

    SiteChecker check() throws IOException {
        List<Path> pages;
        try (Stream<Path> files = Files.walk(site)) {
            pages = files.filter(file -> file.getFileName().toString().endsWith(".html"))
                    .sorted()
                    .toList();
        }
        for (Path page : pages) {
            check(page);
        }
        return this;
    }

    /** One line per broken link: {@code page:line: link: what is missing}. */
    List<String> problems() {
        return problems;
    }

    Set<String> external() {
        return external;
    }

    int checked() {
        return checked;
    }

    private void check(Path page) throws IOException {
        String html = Html.withoutComments(Files.readString(page));
        Matcher matcher = Markdown.HTML_LINK.matcher(html);
        int line = 1;
        int counted = 0;
        while (matcher.find()) {
            line += (int) html.substring(counted, matcher.start())
                    .chars()
                    .filter(c -> c == '\n')
                    .count();
            counted = matcher.start();
            String raw = Html.unescape(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
            String problem = problem(page, raw);
            if (problem != null) {
                problems.add(site.relativize(page) + ":" + line + ": (" + raw + ") " + problem);
            }
        }
    }

    private String problem(Path page, String raw) {
        Destination link = Destination.parse(raw);
        if (link.external()) {
            if (link.web()) {
                external.add(raw);
                return null;
            }
            return "mailto".equals(link.scheme()) || "data".equals(link.scheme())
                    ? null
                    : "the scheme " + link.scheme() + ": leads nowhere on a static site";
        }
        checked++;
        if (link.local()) {
            return link.fragment() == null ? "an empty link" : fragmentProblem(page, link.fragment());
        }
        if (link.path().startsWith("/")) {
            return "an absolute path, which leaves the site";
        }
        Path target = page.getParent().resolve(link.path()).normalize();
        if (!target.startsWith(site)) {
            return "leads outside the site";
        }
        if (Files.isDirectory(target)) {
            target = target.resolve("index.html");
            if (!Files.isRegularFile(target)) {
                return "the folder " + site.relativize(target.getParent()) + " has no index.html";
            }
        }
        if (!Files.isRegularFile(target)) {
            return "no file " + site.relativize(target) + " in the site";
        }
        return link.fragment() == null || !target.getFileName().toString().endsWith(".html")
                ? null
                : fragmentProblem(target, link.fragment());
    }

    private String fragmentProblem(Path page, String fragment) {
        Set<String> known = ids.computeIfAbsent(page, p -> Markdown.ids(Markdown.read(p)));
        return known.contains(fragment) ? null : "no id #" + fragment + " in " + site.relativize(page);
    }
}
