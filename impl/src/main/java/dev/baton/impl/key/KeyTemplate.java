package dev.baton.impl.key;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A compiled key template such as {@code order:{id}} or {@code cart:{0.customer.id}}: literal text and
 * placeholders, each placeholder a parameter (by name or position) followed by a property path. All
 * lookups happen in {@link #compile}; {@link #resolve} only concatenates and invokes method handles.
 */
public final class KeyTemplate {

    private sealed interface Part permits Literal, Placeholder {}

    private record Literal(String text) implements Part {}

    private record Placeholder(String source, int parameter, PropertyPath path) implements Part {}

    private final String template;
    private final List<Part> parts;

    /** The key of every invocation when the template has no placeholder, else null. */
    private final String fixed;

    private KeyTemplate(String template, List<Part> parts) {
        this.template = template;
        this.parts = parts;
        this.fixed = parts.stream().allMatch(Literal.class::isInstance)
                ? parts.stream().map(p -> ((Literal) p).text()).collect(Collectors.joining())
                : null;
    }

    /**
     * @return the one key of a template without placeholders (the same string each time: nothing to build per
     *     call, and its hash is computed once), or null if the key depends on the arguments
     */
    public String fixed() {
        return fixed;
    }

    /**
     * Parses {@code template} and binds every placeholder to {@code method}'s parameters.
     *
     * @param template the template; {@code {{} and {@code }}} are literal braces
     * @param method the method whose parameters the placeholders name
     * @return the compiled template
     * @throws TemplateException naming the placeholder that cannot be resolved, or the syntax error
     */
    public static KeyTemplate compile(String template, Method method) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '{' && i + 1 < template.length() && template.charAt(i + 1) == '{') {
                literal.append('{');
                i += 2;
            } else if (c == '}' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
                literal.append('}');
                i += 2;
            } else if (c == '}') {
                throw new TemplateException("unmatched '}' at index " + i + " (write '}}' for a literal brace)");
            } else if (c == '{') {
                int end = template.indexOf('}', i + 1);
                if (end < 0) {
                    throw new TemplateException("unclosed '{' at index " + i + " (write '{{' for a literal brace)");
                }
                if (literal.length() > 0) {
                    parts.add(new Literal(literal.toString()));
                    literal.setLength(0);
                }
                parts.add(placeholder(template.substring(i + 1, end), method));
                i = end + 1;
            } else {
                literal.append(c);
                i++;
            }
        }
        if (literal.length() > 0) {
            parts.add(new Literal(literal.toString()));
        }
        return new KeyTemplate(template, List.copyOf(parts));
    }

    /**
     * Builds the key for one invocation.
     *
     * @param arguments the invocation's arguments
     * @return the key
     * @throws IllegalArgumentException if a placeholder's value is null
     */
    public String resolve(Object[] arguments) {
        if (fixed != null) {
            return fixed;
        }
        StringBuilder key = new StringBuilder(64);
        for (Part part : parts) {
            if (part instanceof Literal literal) {
                key.append(literal.text());
            } else {
                Placeholder p = (Placeholder) part;
                Object value = p.path().apply(arguments[p.parameter()]);
                if (value == null) {
                    throw new IllegalArgumentException(
                            "Lock key template '" + template + "': {" + p.source() + "} is null in this call");
                }
                key.append(text(value));
            }
        }
        return key.toString();
    }

    /** The text of a value; an array by its contents, since its own {@code toString()} is its identity. */
    private static String text(Object value) {
        if (value.getClass().isArray()) {
            String deep = Arrays.deepToString(new Object[] {value});
            return deep.substring(1, deep.length() - 1);
        }
        return value.toString();
    }

    private static Placeholder placeholder(String source, Method method) {
        String expression = source.trim();
        if (expression.isEmpty()) {
            throw new TemplateException("empty placeholder {}");
        }
        String[] segments = expression.split("\\.", -1);
        for (String segment : segments) {
            if (segment.isEmpty()) {
                throw new TemplateException("placeholder {" + source + "} has an empty path segment");
            }
        }
        int index = parameterIndex(segments[0], source, method);
        Parameter parameter = method.getParameters()[index];
        PropertyPath path = PropertyPath.compile(parameter.getType(), segments, 1, source);
        return new Placeholder(expression, index, path);
    }

    private static int parameterIndex(String head, String source, Method method) {
        Parameter[] parameters = method.getParameters();
        if (Character.isDigit(head.charAt(0))) {
            int index;
            try {
                index = Integer.parseInt(head);
            } catch (NumberFormatException e) {
                throw new TemplateException("placeholder {" + source + "}: '" + head + "' is not a parameter index");
            }
            if (index >= parameters.length) {
                throw new TemplateException("placeholder {" + source + "}: the method has " + parameters.length
                        + " parameter(s), so there is no parameter " + index);
            }
            return index;
        }
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].isNamePresent() && parameters[i].getName().equals(head)) {
                return i;
            }
        }
        if (parameters.length > 0 && !parameters[0].isNamePresent()) {
            throw new TemplateException("placeholder {" + source + "}: parameter names are not available; compile with "
                    + "-parameters or use positions such as {0}");
        }
        List<String> names = new ArrayList<>();
        for (Parameter p : parameters) {
            names.add(p.getName());
        }
        throw new TemplateException("placeholder {" + source + "}: the method has no parameter named '" + head
                + "' (parameters: " + names + ")");
    }

    @Override
    public String toString() {
        return template;
    }
}
