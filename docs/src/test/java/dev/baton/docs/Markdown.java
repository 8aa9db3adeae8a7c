package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Markdown as GitHub shows it, close enough for links: CommonMark with GFM tables, headings with GitHub's ids
 * (lower case, spaces to {@code -}, punctuation other than {@code -} and {@code _} dropped, a repeated heading
 * gets {@code -1}, {@code -2}, …) and raw HTML kept (so {@code <a id="x"></a>} anchors stay). The link checker
 * and the site use this one parser, so the ids a link is checked against are the ids the site has.
 */
final class Markdown {

    private static final List<Extension> EXTENSIONS =
            List.of(TablesExtension.create(), HeadingAnchorExtension.create());
    private static final Parser PARSER = Parser.builder()
            .extensions(EXTENSIONS)
            .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES)
            .build();
    private static final HtmlRenderer RENDERER =
            HtmlRenderer.builder().extensions(EXTENSIONS).build();

    /** {@code href}, {@code src} attributes in raw HTML or rendered pages; group 2 or 3 is the value. */
    static final Pattern HTML_LINK =
            Pattern.compile("\\s(?:href|src)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE);
    /** {@code id} attributes and the {@code name} of {@code <a>} elements; group 1 or 2 is the value. */
    static final Pattern HTML_ID = Pattern.compile(
            "(?:\\sid|<a\\s(?:[^>]*?\\s)?name)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE);

    /** A link or image of a document: its destination as written and the line (from 1) it is on. */
    record Reference(String destination, int line) {}

    private Markdown() {}

    static Node parse(Path document) {
        return parse(read(document));
    }

    static Node parse(String markdown) {
        return PARSER.parse(markdown);
    }

    static String html(Node document) {
        return RENDERER.render(document);
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fragments a link can point at in this document: its headings' ids and its HTML anchors' ids and names. */
    static Set<String> anchors(Path document) {
        return ids(html(parse(document)));
    }

    /** Every {@code id} and {@code name} attribute of a page. */
    static Set<String> ids(String html) {
        Set<String> ids = new LinkedHashSet<>();
        Matcher matcher = HTML_ID.matcher(html);
        while (matcher.find()) {
            ids.add(Html.unescape(matcher.group(1) != null ? matcher.group(1) : matcher.group(2)));
        }
        return ids;
    }

    /** Every link and image of a document, Markdown or raw HTML ({@code href}, {@code src}), in order. */
    static List<Reference> references(Path document) {
        List<Reference> references = new ArrayList<>();
        parse(document).accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                references.add(new Reference(link.getDestination(), line(link)));
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                references.add(new Reference(image.getDestination(), line(image)));
                visitChildren(image);
            }

            @Override
            public void visit(HtmlInline html) {
                raw(html.getLiteral(), line(html));
            }

            @Override
            public void visit(HtmlBlock html) {
                raw(html.getLiteral(), line(html));
            }

            private void raw(String html, int firstLine) {
                String literal = Html.withoutComments(html);
                Matcher matcher = HTML_LINK.matcher(literal);
                while (matcher.find()) {
                    int line = firstLine + Html.lines(literal, 0, matcher.start());
                    String value = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
                    references.add(new Reference(Html.unescape(value), line));
                }
            }
        });
        return references;
    }

    private static int line(Node node) {
        List<SourceSpan> spans = node.getSourceSpans();
        if (spans.isEmpty() && node.getParent() != null) {
            return line(node.getParent());
        }
        return spans.isEmpty() ? 0 : spans.get(0).getLineIndex() + 1;
    }
}
