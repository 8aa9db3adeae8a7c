package dev.baton.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * Checks a rendered site as a browser will follow it: every {@code href} and {@code src} of every page that is not a
 * web link must name a file inside the site (a folder must have an {@code index.html}), and a fragment into a page
 * must be an {@code id} or {@code name} of that page. Fragments into files that are not pages (a copied source,
 * the PDF) are not checked. Web links ({@code http}, {@code https}) are collected, not fetched; {@code mailto:} and
 * {@code data:} are ignored; any other scheme is a problem.
 */
final class SiteChecker extends Checker {

    private final Path site;
    private final Map<Path, Set<String>> ids = new HashMap<>();

    SiteChecker(Path site) {
        this.site = site.toAbsolutePath().normalize();
    }

    /** Checks every link of every page of the site. */
    SiteChecker check() throws IOException {
        List<Path> pages;
        try (Stream<Path> files = Files.walk(site)) {
            pages = files.filter(file -> file.getFileName().toString().endsWith(".html"))
                    .sorted()
                    .toList();
        }
        for (Path page : pages) {
            String html = Html.withoutComments(Files.readString(page));
            Matcher matcher = Markdown.HTML_LINK.matcher(html);
            int line = 1;
            int counted = 0;
            while (matcher.find()) {
                line += Html.lines(html, counted, matcher.start());
                counted = matcher.start();
                String raw = Html.unescape(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
                check(
                        site.relativize(page).toString(),
                        line,
                        raw,
                        Set.of("mailto", "data"),
                        link -> problem(page, link));
            }
        }
        return this;
    }

    private String problem(Path page, Destination link) {
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
