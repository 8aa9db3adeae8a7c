package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a code sample of a document comes from: a file of the repository, whole or one tagged region of it.
 * A region runs from the line holding {@code tag::name[]} to the line holding {@code end::name[]} (in any comment
 * syntax: {@code // tag::pay[]}, {@code <!-- tag::pay[] -->}, {@code # tag::pay[]}, as AsciiDoc includes them); lines
 * marking other regions inside it are left out, and the common indentation is removed.
 */
record Snippet(String path, String tag) {

    private static final Pattern MARKER = Pattern.compile("(tag|end)::[A-Za-z0-9_.-]+\\[]");

    static Snippet parse(String reference) {
        int hash = reference.indexOf('#');
        return hash < 0
                ? new Snippet(reference, null)
                : new Snippet(reference.substring(0, hash), reference.substring(hash + 1));
    }

    /** The region's lines, or a message naming what is wrong (a missing file, tag or end). */
    List<String> lines(Path root) {
        Path file = root.resolve(path).normalize();
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no file " + path + " in the repository");
        }
        List<String> all;
        try {
            all = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> region = new ArrayList<>();
        boolean inside = tag == null;
        boolean found = tag == null;
        for (String line : all) {
            if (tag != null && line.contains("tag::" + tag + "[]")) {
                if (found) {
                    throw new IllegalArgumentException(path + " opens the region '" + tag + "' twice");
                }
                inside = found = true;
                continue;
            }
            if (tag != null && line.contains("end::" + tag + "[]")) {
                if (!inside) {
                    throw new IllegalArgumentException(path + " ends the region '" + tag + "' before it opens it");
                }
                inside = false;
                continue;
            }
            Matcher other = MARKER.matcher(line);
            if (inside && !other.find()) {
                region.add(line.stripTrailing());
            }
        }
        if (!found) {
            throw new IllegalArgumentException(path + " has no region tag::" + tag + "[]");
        }
        if (inside && tag != null) {
            throw new IllegalArgumentException(path + " never ends the region '" + tag + "' (end::" + tag + "[])");
        }
        while (!region.isEmpty() && region.get(0).isBlank()) {
            region.remove(0);
        }
        while (!region.isEmpty() && region.get(region.size() - 1).isBlank()) {
            region.remove(region.size() - 1);
        }
        if (region.isEmpty()) {
            throw new IllegalArgumentException(this + " is empty");
        }
        int indent = region.stream()
                .filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length())
                .min()
                .orElse(0);
        return region.stream()
                .map(line -> line.isBlank() ? "" : line.substring(indent))
                .toList();
    }

    @Override
    public String toString() {
        return tag == null ? path : path + "#" + tag;
    }
}
