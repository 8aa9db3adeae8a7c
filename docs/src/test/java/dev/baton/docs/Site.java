package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;

/**
 * Renders the repository's Markdown documents and its specification into one static HTML site.
 * <p>
 * Each document becomes a page at the same relative path: {@code README.md} becomes the folder's
 * {@code index.html} (so the root README is the site's home and {@code docs/README.md} the guides' index), any other
 * {@code x.md} becomes {@code x.html}. Every page has a header with links to the home, the guides' index, the
 * reference and the specification, and shares one style sheet ({@code baton.css}). Links are rewritten to work on
 * the site: to a document, to its page; to the specification's AsciiDoc sources ({@code spec/src/main/asciidoc/*.adoc}),
 * to the rendered specification ({@code spec/baton-spec.html}, fragment kept); to a folder, to its README's page or
 * to a generated listing of the folder; to any other file of the repository, to a copy of that file placed at the
 * same relative path. The specification's rendered HTML (and PDF, when built with {@code -Ppdf}; the spec module's
 * {@code target/generated-docs}) are copied to {@code spec/}. A link that leads nowhere is left as written, for {@link SiteChecker} to report.
 */
final class Site {

    static final Path SPEC_SOURCES = Path.of("spec", "src", "main", "asciidoc");
    static final Path SPEC_PAGE = Path.of("spec", "baton-spec.html");
    static final String STYLE = "baton.css";

    private final Path root;
    private final Path out;
    private final Set<Path> documents = new TreeSet<>();
    private final Set<Path> copies = new TreeSet<>();
    private final Set<Path> listings = new TreeSet<>();

    /** A site of the repository at {@code root}, written to {@code out} (emptied first). */
    Site(Path root, Path out) {
        this.root = root.toAbsolutePath().normalize();
        this.out = out.toAbsolutePath().normalize();
    }

    /**
     * Renders these documents, copies the rendered specification from {@code specOutput} (its HTML, PDF and
     * anything beside them) and the files the documents link to. Returns the pages written, relative to the site.
     */
    List<Path> render(List<Path> markdown, Path specOutput) throws IOException {
        deleteRecursively(out);
        Files.createDirectories(out);
        for (Path document : markdown) {
            documents.add(root.relativize(document.toAbsolutePath().normalize()));
        }
        List<Path> pages = new ArrayList<>();
        for (Path document : documents) {
            Path page = page(document);
            write(page, renderPage(document));
            pages.add(page);
        }
        copyTree(specOutput, out.resolve(SPEC_PAGE.getParent()));
        for (Path file : copies) {
            Path copy = out.resolve(file);
            Files.createDirectories(copy.getParent());
            Files.copy(root.resolve(file), copy, StandardCopyOption.REPLACE_EXISTING);
        }
        for (Path folder : listings) {
            write(folder.resolve("index.html"), listing(folder));
            pages.add(folder.resolve("index.html"));
        }
        Files.writeString(out.resolve(STYLE), CSS, StandardCharsets.UTF_8);
        return pages;
    }

    /** The page of a document: {@code README.md} is its folder's {@code index.html}, {@code x.md} is {@code x.html}. */
    static Path page(Path document) {
        String name = document.getFileName().toString();
        String html =
                name.equals("README.md") ? "index.html" : name.substring(0, name.length() - ".md".length()) + ".html";
        return document.resolveSibling(html);
    }

    private String renderPage(Path document) {
        Node node = Markdown.parse(root.resolve(document));
        String[] title = {null};
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                if (title[0] == null && heading.getLevel() == 1) {
                    title[0] = text(heading);
                }
                visitChildren(heading);
            }

            @Override
            public void visit(Link link) {
                link.setDestination(rewrite(document, link.getDestination()));
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                image.setDestination(rewrite(document, image.getDestination()));
                visitChildren(image);
            }

            @Override
            public void visit(HtmlInline html) {
                html.setLiteral(rewriteHtml(document, html.getLiteral()));
            }

            @Override
            public void visit(HtmlBlock html) {
                html.setLiteral(rewriteHtml(document, html.getLiteral()));
            }
        });
        String name = title[0] != null ? title[0] : document.toString();
        return frame(
                document,
                name,
                Markdown.html(node),
                "Rendered from <code>" + Html.escape(slashes(document)) + "</code>");
    }

    private String rewriteHtml(Path document, String html) {
        Matcher matcher = Markdown.HTML_LINK.matcher(html);
        StringBuilder rewritten = new StringBuilder();
        while (matcher.find()) {
            int group = matcher.group(1) != null ? 1 : 2;
            String value = Html.unescape(matcher.group(group));
            String replaced = Html.escape(rewrite(document, value));
            String whole = matcher.group();
            int start = matcher.start(group) - matcher.start();
            int end = matcher.end(group) - matcher.start();
            matcher.appendReplacement(
                    rewritten, Matcher.quoteReplacement(whole.substring(0, start) + replaced + whole.substring(end)));
        }
        matcher.appendTail(rewritten);
        return rewritten.toString();
    }

    /** Where a link of {@code document} leads on the site; as written if it leads nowhere in the repository. */
    String rewrite(Path document, String raw) {
        Destination link = Destination.parse(raw);
        if (link.external() || link.local() || link.path().startsWith("/")) {
            return raw;
        }
        Path source = root.resolve(document);
        Path target = source.getParent().resolve(link.path()).normalize();
        if (!target.startsWith(root) || !Files.exists(target)) {
            return raw;
        }
        Path relative = root.relativize(target);
        Path onSite;
        if (documents.contains(relative)) {
            onSite = page(relative);
        } else if (relative.startsWith(SPEC_SOURCES) && relative.toString().endsWith(".adoc")) {
            onSite = SPEC_PAGE;
        } else if (Files.isDirectory(target)) {
            Path readme = relative.resolve("README.md");
            if (documents.contains(readme)) {
                onSite = page(readme);
            } else {
                list(relative);
                onSite = relative.resolve("index.html");
            }
        } else {
            copies.add(relative);
            onSite = relative;
        }
        String trimmed = raw.strip();
        int suffix = firstOf(trimmed, '?', '#');
        return Html.percentEncodePath(slashes(from(document, onSite))) + (suffix < 0 ? "" : trimmed.substring(suffix));
    }

    /** A folder with no README gets a page listing its files (copied) and folders (listed the same way). */
    private void list(Path folder) {
        if (!listings.add(folder)) {
            return;
        }
        for (Path entry : entries(folder)) {
            if (Files.isDirectory(root.resolve(entry))) {
                if (!documents.contains(entry.resolve("README.md"))) {
                    list(entry);
                }
            } else if (!documents.contains(entry)) {
                copies.add(entry);
            }
        }
    }

    private String listing(Path folder) {
        StringBuilder body =
                new StringBuilder("<h1>").append(Html.escape(slashes(folder))).append("/</h1>\n<ul>\n");
        for (Path entry : entries(folder)) {
            String name = entry.getFileName().toString();
            Path onSite;
            if (Files.isDirectory(root.resolve(entry))) {
                Path readme = entry.resolve("README.md");
                onSite = documents.contains(readme) ? page(readme) : entry.resolve("index.html");
                name += "/";
            } else {
                onSite = documents.contains(entry) ? page(entry) : entry;
            }
            body.append("<li><a href=\"")
                    .append(Html.escape(Html.percentEncodePath(slashes(from(folder.resolve("index.html"), onSite)))))
                    .append("\">")
                    .append(Html.escape(name))
                    .append("</a></li>\n");
        }
        body.append("</ul>\n");
        return frame(folder.resolve("index.html"), slashes(folder) + "/", body.toString(), "The files of the folder");
    }

    private List<Path> entries(Path folder) {
        try (Stream<Path> entries = Files.list(root.resolve(folder))) {
            return entries.map(root::relativize)
                    .filter(entry -> {
                        String name = entry.getFileName().toString();
                        return !name.startsWith(".") && !name.equals("target");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A page around a rendered body: the shared style sheet and the header's links, relative to the page. */
    private String frame(Path page, String title, String body, String footer) {
        Map<String, Path> nav = new LinkedHashMap<>();
        nav.put("Baton", Path.of("README.md"));
        nav.put("Guides", Path.of("docs", "README.md"));
        nav.put("Reference", Path.of("docs", "reference.md"));
        StringBuilder header = new StringBuilder();
        for (Map.Entry<String, Path> entry : nav.entrySet()) {
            if (documents.contains(entry.getValue())) {
                header.append("<a href=\"")
                        .append(slashes(from(page, page(entry.getValue()))))
                        .append("\">")
                        .append(entry.getKey())
                        .append("</a>\n");
            }
        }
        header.append("<a href=\"").append(slashes(from(page, SPEC_PAGE))).append("\">Specification</a>\n");
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%s</title>
                <link rel="stylesheet" href="%s">
                </head>
                <body>
                <header><nav>
                %s</nav></header>
                <main>
                %s</main>
                <footer>%s</footer>
                </body>
                </html>
                """.formatted(Html.escape(title), slashes(from(page, Path.of(STYLE))), header, body, footer);
    }

    /** The path from the page or document {@code from} to {@code to}, both relative to the site's root. */
    private static Path from(Path from, Path to) {
        Path folder = from.getParent();
        return folder == null ? to : folder.relativize(to);
    }

    private static String slashes(Path path) {
        return path.toString().replace('\\', '/');
    }

    private static int firstOf(String value, char a, char b) {
        int i = value.indexOf(a);
        int j = value.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    private static String text(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code code) {
                text.append(code.getLiteral());
            }
        });
        return text.toString().strip();
    }

    private void write(Path page, String html) throws IOException {
        Path file = out.resolve(page);
        Files.createDirectories(file.getParent());
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path copy = to.resolve(from.relativize(file).toString());
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static final String CSS = """
            body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
            header { background: #24292f; padding: .6em 1.5em; }
            header a { color: #fff; margin-right: 1.5em; text-decoration: none; font-weight: 600; }
            header a:hover { text-decoration: underline; }
            main { max-width: 60em; margin: 0 auto; padding: 1em 1.5em 3em; }
            footer { max-width: 60em; margin: 0 auto; padding: 1em 1.5em; color: #656d76; font-size: .85em; }
            a { color: #0969da; }
            h1, h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .3em; }
            code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa;
                   padding: .15em .3em; border-radius: 4px; }
            pre { background: #f6f8fa; padding: 1em; overflow: auto; border-radius: 6px; line-height: 1.4; }
            pre code { padding: 0; background: none; }
            table { border-collapse: collapse; margin: 1em 0; display: block; overflow: auto; }
            th, td { border: 1px solid #d0d7de; padding: .35em .7em; vertical-align: top; }
            th { background: #f6f8fa; }
            blockquote { margin: 0; padding: 0 1em; color: #656d76; border-left: .25em solid #d0d7de; }
            img { max-width: 100%; }
            """;
}
