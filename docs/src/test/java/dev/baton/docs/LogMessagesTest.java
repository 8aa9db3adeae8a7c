package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The log ids live in one registry per module, each an enum of the same shape: {@code BatonMessage} (runtime),
 * {@code JpaMessage} and {@code RedisMessage} (the stores keep their own, as they depend on the API only). The ids
 * are unique across all of them, each registry's ids carry its module's prefix, each pattern is a well-formed
 * {@link MessageFormat} pattern, and no main source outside the registries writes an id in a string literal: a
 * message is logged, and an exception that names an id names it through its constant ({@code X.id()}), so an id
 * is written once. Comments may mention ids (they are checked against the reference by {@link ReferenceTest}).
 */
class LogMessagesTest {

    /** A registry: its enum, the module and source it is in, and the prefix of its ids. */
    record Registry(String className, String module, Pattern ids) {
        Path source() {
            return Documents.root()
                    .resolve(module)
                    .resolve("src/main/java")
                    .resolve(className.replace('.', '/') + ".java");
        }
    }

    /** One message of a registry. */
    record Message(String id, Level level, String pattern, String constant) {}

    static final List<Registry> REGISTRIES = List.of(
            new Registry("dev.baton.impl.logging.BatonMessage", "impl", Pattern.compile("BATON-\\d{3}")),
            new Registry("dev.baton.jpa.internal.JpaMessage", "jpa-store", Pattern.compile("BATON-JPA-\\d{3}")),
            new Registry("dev.baton.redis.internal.RedisMessage", "redis-store", Pattern.compile("BATON-REDIS-\\d{3}")),
            new Registry(
                    "dev.baton.zookeeper.internal.ZooKeeperMessage",
                    "zookeeper-store",
                    Pattern.compile("BATON-ZK-\\d{3}")),
            new Registry("dev.baton.etcd.internal.EtcdMessage", "etcd-store", Pattern.compile("BATON-ETCD-\\d{3}")),
            new Registry(
                    "dev.baton.mongodb.internal.MongoMessage", "mongodb-store", Pattern.compile("BATON-MONGO-\\d{3}")));

    /** An id anywhere in a text. */
    static final Pattern ID = Pattern.compile("BATON-(?:[A-Z]+-)?\\d{3}");

    /** @return every message of every registry, read through each enum's {@code id()}, {@code level()} and {@code pattern()} */
    static List<Message> messages() {
        List<Message> messages = new ArrayList<>();
        for (Registry registry : REGISTRIES) {
            messages.addAll(messages(registry));
        }
        return messages;
    }

    private static List<Message> messages(Registry registry) {
        try {
            Class<?> type = Class.forName(registry.className());
            assertThat(type.isEnum()).as("%s is an enum", type).isTrue();
            List<Message> messages = new ArrayList<>();
            for (Object constant : type.getEnumConstants()) {
                messages.add(new Message(
                        (String) type.getMethod("id").invoke(constant),
                        (Level) type.getMethod("level").invoke(constant),
                        (String) type.getMethod("pattern").invoke(constant),
                        type.getSimpleName() + "." + constant));
            }
            return messages;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(registry.className() + " is not a registry of log messages", e);
        }
    }

    @Test
    void idsAreUniqueAcrossTheRegistries() {
        Map<String, List<String>> byId = new TreeMap<>();
        for (Message message : messages()) {
            byId.computeIfAbsent(message.id(), id -> new ArrayList<>()).add(message.constant());
        }
        List<String> problems = new ArrayList<>();
        byId.forEach((id, constants) -> {
            if (constants.size() > 1) {
                problems.add(id + " names " + constants.size() + " messages, each id names one: " + constants);
            }
        });
        assertThat(byId).as("the registries' ids").isNotEmpty();
        assertThat(problems).as("log ids: one message each").isEmpty();
    }

    @Test
    void eachRegistryHasItsModulesIdsAndWellFormedPatterns() {
        List<String> problems = new ArrayList<>();
        for (Registry registry : REGISTRIES) {
            for (Message message : messages(registry)) {
                if (!registry.ids().matcher(message.id()).matches()) {
                    problems.add(
                            message.constant() + "'s id " + message.id() + " is not of the form " + registry.ids());
                }
                // a lone quote would silently swallow the text after it: formatted, the pattern reads as written
                MessageFormat format = new MessageFormat(message.pattern());
                Object[] placeholders = new Object[format.getFormatsByArgumentIndex().length];
                for (int i = 0; i < placeholders.length; i++) {
                    placeholders[i] = "{" + i + "}";
                }
                if (!format.format(placeholders).equals(message.pattern().replace("''", "'"))) {
                    problems.add(message.constant() + "'s pattern has an unpaired quote: " + message.pattern());
                }
                if (ID.matcher(message.pattern()).find()) {
                    problems.add(message.constant() + "'s pattern names an id (the id is put first by itself)");
                }
            }
        }
        assertThat(problems).as("the registries of log messages").isEmpty();
    }

    @Test
    void noMainSourceOutsideTheRegistriesWritesAnIdInAStringLiteral() throws IOException {
        List<Path> registries = REGISTRIES.stream().map(Registry::source).toList();
        registries.forEach(
                source -> assertThat(source).as("a registry's source").exists());
        List<String> problems = new ArrayList<>();
        for (String module : ReferenceTest.MODULES) {
            Path main = Documents.root().resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(main)) {
                for (Path source : files.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    if (registries.contains(source)) {
                        continue;
                    }
                    String text = Files.readString(source);
                    for (String literal : stringLiterals(text)) {
                        Matcher id = ID.matcher(literal);
                        if (id.find()) {
                            problems.add(
                                    Documents.root().relativize(source) + " writes " + id.group()
                                            + " in a string literal: log it through its registry, or name it by its constant's id()");
                        }
                    }
                }
            }
        }
        assertThat(problems).as("ids outside the registries").isEmpty();
    }

    /** The string literals (text blocks included) of Java source, outside comments; escapes kept as written. */
    static List<String> stringLiterals(String java) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        int n = java.length();
        while (i < n) {
            char c = java.charAt(i);
            if (java.startsWith("//", i)) {
                i = java.indexOf('\n', i);
                i = i < 0 ? n : i;
            } else if (java.startsWith("/*", i)) {
                i = java.indexOf("*/", i + 2);
                i = i < 0 ? n : i + 2;
            } else if (java.startsWith("\"\"\"", i)) {
                int end = java.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end;
                literals.add(java.substring(i + 3, end));
                i = Math.min(n, end + 3);
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && java.charAt(j) != c && java.charAt(j) != '\n') {
                    j += java.charAt(j) == '\\' ? 2 : 1;
                }
                if (c == '"') {
                    literals.add(java.substring(i + 1, Math.min(j, n)));
                }
                i = j + 1;
            } else {
                i++;
            }
        }
        return literals;
    }
}
