package dev.baton.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What a link checker found: one line per broken link, the web links (not fetched) and how many links it checked. */
abstract class Checker {

    private final List<String> problems = new ArrayList<>();
    private final Set<String> external = new TreeSet<>();
    private int checked;

    /** One line per broken link: {@code file:line: (link) what is missing}. */
    final List<String> problems() {
        return problems;
    }

    /** The web links ({@code http}, {@code https}), not fetched. */
    final Set<String> external() {
        return external;
    }

    /** How many links that lead into the repository or the site were checked. */
    final int checked() {
        return checked;
    }

    /** Checks one link: web links are collected, links with an {@code ignored} scheme pass, the rest is checked. */
    final void check(String file, int line, String raw, Set<String> ignored, Resolver resolver) {
        Destination link = Destination.parse(raw);
        String problem;
        if (link.web()) {
            external.add(raw.strip());
            problem = null;
        } else if (link.external()) {
            problem = ignored.contains(link.scheme())
                    ? null
                    : "the scheme " + link.scheme() + ": is neither a web link nor a file";
        } else {
            checked++;
            problem = resolver.problem(link);
        }
        if (problem != null) {
            problems.add(file + ":" + line + ": (" + raw + ") " + problem);
        }
    }

    /** What is wrong with a relative link, or null. */
    interface Resolver {
        String problem(Destination link);
    }
}
