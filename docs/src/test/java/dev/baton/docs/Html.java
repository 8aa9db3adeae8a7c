package dev.baton.docs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small helpers for HTML attribute values and URL parts. */
final class Html {

    private static final Pattern ENTITY = Pattern.compile("&(#[0-9]+|#[xX][0-9a-fA-F]+|amp|lt|gt|quot|apos);");

    private Html() {}

    /** An attribute value as the browser reads it: the character references of HTML's escaping resolved. */
    static String unescape(String value) {
        Matcher matcher = ENTITY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String replacement = switch (name) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default ->
                    Character.toString(
                            name.startsWith("#x") || name.startsWith("#X")
                                    ? Integer.parseInt(name.substring(2), 16)
                                    : Integer.parseInt(name.substring(1)));
            };
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static final Pattern COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);

    /** The HTML with its comments blanked out, line breaks kept (so line numbers stay right). */
    static String withoutComments(String html) {
        Matcher matcher = COMMENT.matcher(html);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, matcher.group().replaceAll("[^\\n]", ""));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** How many line breaks the text has between these offsets. */
    static int lines(String text, int from, int to) {
        int lines = 0;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                lines++;
            }
        }
        return lines;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /** {@code %XX} sequences decoded as UTF-8; a {@code +} stays a {@code +} (this is a path, not a form). */
    static String percentDecode(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%' && isHex(value, i + 1) && isHex(value, i + 2)) {
                bytes.write(Integer.parseInt(value.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A path for an {@code href}: characters that would end or change it percent-encoded. */
    static String percentEncodePath(String path) {
        StringBuilder out = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c <= ' ' || c >= 0x7f || c == '%' || c == '#' || c == '?' || c == '"' || c == '\'' || c == '<'
                    || c == '>') {
                out.append('%').append(String.format("%02X", c));
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }

    private static boolean isHex(String value, int index) {
        return index < value.length() && Character.digit(value.charAt(index), 16) >= 0;
    }
}
