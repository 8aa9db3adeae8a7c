package dev.baton.tck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The assertions of Baton's specification, read from its AsciiDoc sources: the main document and the files it
 * includes. An assertion is a paragraph that begins with its anchor and, in bold, the same anchor
 * ({@code [[spec-store-acquire-free-key]]**spec-store-acquire-free-key**: A store MUST ...}); a line
 * {@code _Not checked by the TCK: <reason>._} in the paragraph says why no rule checks it. What is not well formed
 * (a key word of RFC 2119 in a paragraph that is not an assertion, an anchor whose bold label differs, an anchor
 * used twice, an include that is missing) is collected in {@link #problems()}.
 *
 * @param assertions the assertions by anchor, in the order of the document
 * @param problems what is not well formed, each naming the file and line
 */
record Specification(Map<String, Assertion> assertions, List<String> problems) {

    /** The main document of the {@code baton-spec} artifact, on the class path. */
    static final String MAIN = "dev/baton/spec/baton-spec.adoc";

    /** The line that says why no rule checks an assertion; group 1 is the reason. */
    static final Pattern NOT_CHECKED = Pattern.compile("_Not checked by the TCK(?: as a rule of its own)?: (.+)\\._");

    private static final Pattern ASSERTION =
            Pattern.compile("\\[\\[(spec(?:-[a-z0-9]+)+)]]\\*\\*(spec(?:-[a-z0-9]+)+)\\*\\*: .*");
    private static final Pattern ANY_ANCHOR = Pattern.compile("\\[\\[(spec-[^]]*)]]");
    private static final Pattern KEY_WORD =
            Pattern.compile("(?<![`\\w])(MUST|SHOULD|MAY|SHALL|REQUIRED|RECOMMENDED|OPTIONAL)(?![`\\w])");
    private static final Pattern INCLUDE = Pattern.compile("include::([^\\[]+)\\[]");
    /** Delimited blocks (listings, examples, tables): informative, never an assertion. */
    private static final Pattern DELIMITER = Pattern.compile("-{4,}|\\.{4,}|/{4,}|\\+{4,}|_{4,}|={4,}|\\|===");

    /**
     * One normative assertion.
     *
     * @param anchor its anchor
     * @param reason why no rule of the TCK checks it, or {@code null} when it does not say
     * @param where its file and line
     */
    record Assertion(String anchor, String reason, String where) {}

    /**
     * @return the specification of the {@code baton-spec} artifact on the class path
     */
    static Specification fromClassPath() {
        String directory = MAIN.substring(0, MAIN.lastIndexOf('/') + 1);
        return read(MAIN.substring(directory.length()), name -> {
            try (InputStream in = Specification.class.getClassLoader().getResourceAsStream(directory + name)) {
                return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + directory + name, e);
            }
        });
    }

    /**
     * Reads a specification.
     *
     * @param main the main document's name
     * @param files the text of a file by its name, {@code null} for a file that does not exist
     * @return its assertions and problems
     */
    static Specification read(String main, Function<String, String> files) {
        Map<String, Assertion> assertions = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        String text = files.apply(main);
        if (text == null) {
            problems.add(main + " is missing: is the baton-spec artifact on the class path?");
        } else {
            readFile(main, text, files, assertions, problems);
        }
        return new Specification(Collections.unmodifiableMap(assertions), List.copyOf(problems));
    }

    private static void readFile(
            String name,
            String text,
            Function<String, String> files,
            Map<String, Assertion> assertions,
            List<String> problems) {
        List<String> lines = text.lines().toList();
        boolean inBlock = false;
        int start = -1; // the first line of the paragraph being read, or -1 between paragraphs
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            if (!inBlock && start < 0) {
                Matcher include = INCLUDE.matcher(line.strip());
                if (include.matches()) {
                    String included = files.apply(include.group(1));
                    if (included == null) {
                        problems.add(name + ":" + (i + 1) + ": the included file " + include.group(1) + " is missing");
                    } else {
                        readFile(include.group(1), included, files, assertions, problems);
                    }
                    continue;
                }
            }
            boolean delimiter = DELIMITER.matcher(line.strip()).matches();
            if (start >= 0 && (line.isBlank() || delimiter)) {
                paragraph(name, start, lines.subList(start, i), assertions, problems);
                start = -1;
            }
            if (delimiter) {
                inBlock = !inBlock; // tables and listings are informative: examples, not assertions
            } else if (!inBlock && !line.isBlank() && !line.startsWith("//") && start < 0) {
                start = i;
            }
        }
    }

    private static void paragraph(
            String name, int start, List<String> lines, Map<String, Assertion> assertions, List<String> problems) {
        String where = name + ":" + (start + 1);
        Matcher assertion = ASSERTION.matcher(lines.get(0));
        if (!assertion.matches()) {
            for (String line : lines) {
                Matcher anchor = ANY_ANCHOR.matcher(line);
                if (anchor.find()) {
                    problems.add(where + ": the anchor " + anchor.group(1) + " does not begin an assertion"
                            + " [[spec-...]]**spec-...**: ... (or is not spec-<chapter>-<subject> in lower case)");
                }
                Matcher keyWord = KEY_WORD.matcher(line);
                if (keyWord.find()) {
                    problems.add(where + ": " + keyWord.group(1) + " in a paragraph that is not an assertion");
                }
            }
            return;
        }
        String anchor = assertion.group(1);
        if (!anchor.equals(assertion.group(2))) {
            problems.add(where + ": the assertion's anchor " + anchor + " is labelled " + assertion.group(2));
        }
        // the reason ends the paragraph, over one line or several
        String reason = null;
        String joined = String.join(" ", lines.stream().map(String::strip).toList());
        int at = joined.indexOf("_Not checked by the TCK");
        if (at >= 0) {
            Matcher notChecked = NOT_CHECKED.matcher(joined.substring(at));
            if (notChecked.matches()) {
                reason = notChecked.group(1);
            } else {
                problems.add(where + ": " + anchor + "'s reason does not end the paragraph with '._'");
            }
        }
        if (assertions.put(anchor, new Assertion(anchor, reason, where)) != null) {
            problems.add(where + ": the anchor " + anchor + " is used twice");
        }
    }

    /**
     * What is missing between the rules and the assertions: a rule whose anchor names no assertion, an assertion
     * with neither a rule nor a reason, and an assertion with both (a reason that is no longer true).
     *
     * @param rules the rules of the TCK by id
     * @return what is missing, one line each; empty when every rule and every assertion is covered
     */
    List<String> missing(Map<String, TckRules.Rule> rules) {
        List<String> missing = new ArrayList<>();
        for (TckRules.Rule rule : rules.values()) {
            if (!assertions.containsKey(rule.spec())) {
                missing.add("rule " + rule.id() + " (" + rule.test() + ") names " + rule.spec()
                        + ", which is no assertion of the specification");
            }
        }
        Map<String, List<String>> ids = rulesByAnchor(rules);
        for (Assertion assertion : assertions.values()) {
            List<String> checking = ids.getOrDefault(assertion.anchor(), List.of());
            if (checking.isEmpty() && assertion.reason() == null) {
                missing.add("assertion " + assertion.anchor() + " (" + assertion.where()
                        + ") is checked by no rule and does not say why (_Not checked by the TCK: <reason>._)");
            } else if (!checking.isEmpty() && assertion.reason() != null) {
                missing.add("assertion " + assertion.anchor() + " (" + assertion.where() + ") is checked by " + checking
                        + " but says it is not checked");
            }
        }
        return missing;
    }

    /**
     * @param rules the rules of the TCK by id
     * @return the coverage table: each assertion's anchor with the ids of its rules, or the reason it has none
     */
    String coverageTable(Map<String, TckRules.Rule> rules) {
        Map<String, List<String>> ids = rulesByAnchor(rules);
        int width = assertions.keySet().stream().mapToInt(String::length).max().orElse(10);
        StringBuilder table = new StringBuilder();
        table.append(String.format("%-" + width + "s  %s%n", "assertion", "rules, or why none"));
        long checked = 0;
        for (Assertion assertion : assertions.values()) {
            List<String> checking = ids.getOrDefault(assertion.anchor(), List.of());
            checked += checking.isEmpty() ? 0 : 1;
            table.append(String.format(
                    "%-" + width + "s  %s%n",
                    assertion.anchor(),
                    checking.isEmpty()
                            ? "not checked: " + abbreviate(assertion.reason())
                            : String.join(" ", checking)));
        }
        table.append(String.format(
                "%d assertions: %d checked by %d rules, %d not checked by the TCK%n",
                assertions.size(), checked, rules.size(), assertions.size() - checked));
        return table.toString();
    }

    private static Map<String, List<String>> rulesByAnchor(Map<String, TckRules.Rule> rules) {
        Map<String, List<String>> ids = new TreeMap<>();
        for (TckRules.Rule rule : rules.values()) {
            ids.computeIfAbsent(rule.spec(), anchor -> new ArrayList<>()).add(rule.id());
        }
        return ids;
    }

    private static String abbreviate(String reason) {
        if (reason == null) {
            return "(no reason given)";
        }
        return reason.length() <= 100 ? reason : reason.substring(0, 97) + "...";
    }
}
