package dev.baton.impl.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTemplateTest {

    public record Customer(String id, boolean vip) {}

    public static class Order {
        public final String region;
        private final Customer customer;
        private final boolean express;

        public Order(String region, Customer customer, boolean express) {
            this.region = region;
            this.customer = customer;
            this.express = express;
        }

        public Customer getCustomer() {
            return customer;
        }

        public boolean isExpress() {
            return express;
        }
    }

    @SuppressWarnings("unused")
    static class Methods {
        void byId(long id, String name) {}

        void byOrder(Order order) {}

        void byList(List<String> items) {}

        void none() {}

        void byIds(long[] ids, String[][] names) {}
    }

    private static Method method(String name) {
        for (Method m : Methods.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new AssertionError(name);
    }

    private static final Order ORDER = new Order("eu", new Customer("c-7", true), true);

    @Test
    void aTemplateWithoutPlaceholdersIsOneFixedKeyMadeOnce() {
        KeyTemplate t = KeyTemplate.compile("inventory:{{all}}", method("none"));
        assertThat(t.fixed()).isEqualTo("inventory:{all}");
        assertThat(t.resolve(new Object[0])).isSameAs(t.fixed()).isSameAs(t.resolve(new Object[0]));
        assertThat(KeyTemplate.compile("order:{id}", method("byId")).fixed()).isNull();
    }

    @Test
    void placeholdersByNameAndByPosition() {
        KeyTemplate t = KeyTemplate.compile("order:{id}:{1}", method("byId"));
        assertThat(t.resolve(new Object[] {42L, "bob"})).isEqualTo("order:42:bob");
    }

    @Test
    void dottedPathsThroughGettersRecordsAndPublicFields() {
        Method m = method("byOrder");
        assertThat(KeyTemplate.compile("c:{order.customer.id}", m).resolve(new Object[] {ORDER}))
                .isEqualTo("c:c-7");
        assertThat(KeyTemplate.compile("{order.region}/{0.express}/{order.customer.vip}", m)
                        .resolve(new Object[] {ORDER}))
                .isEqualTo("eu/true/true");
        assertThat(KeyTemplate.compile("n:{items.size}", method("byList")).resolve(new Object[] {List.of("a", "b")}))
                .isEqualTo("n:2");
    }

    @Test
    void doubledBracesAreLiteral() {
        assertThat(KeyTemplate.compile("{{literal}} {id}", method("byId")).resolve(new Object[] {1L, "x"}))
                .isEqualTo("{literal} 1");
        assertThat(KeyTemplate.compile("static-key", method("none")).resolve(new Object[0]))
                .isEqualTo("static-key");
    }

    @Test
    void anArrayGivesTheSameKeyForTheSameContents() {
        // An array's own toString() is its identity: every call would get a key of its own and exclude nobody.
        KeyTemplate t = KeyTemplate.compile("batch:{ids}:{names}", method("byIds"));
        assertThat(t.resolve(new Object[] {new long[] {1, 2}, new String[][] {{"a"}, {"b"}}}))
                .isEqualTo("batch:[1, 2]:[[a], [b]]")
                .isEqualTo(t.resolve(new Object[] {new long[] {1, 2}, new String[][] {{"a"}, {"b"}}}));
    }

    @Test
    void aNullValueFailsTheCallNamingThePlaceholder() {
        KeyTemplate t = KeyTemplate.compile("c:{order.customer.id}", method("byOrder"));
        assertThatThrownBy(() -> t.resolve(new Object[] {new Order("eu", null, false)}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{order.customer.id} is null");
        assertThatThrownBy(() -> t.resolve(new Object[] {null})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unresolvablePlaceholdersAreRejectedAtCompileTime() {
        assertThatThrownBy(() -> KeyTemplate.compile("{nope}", method("byId")))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("no parameter named 'nope'")
                .hasMessageContaining("[id, name]");
        assertThatThrownBy(() -> KeyTemplate.compile("{2}", method("byId")))
                .hasMessageContaining("has 2 parameter(s), so there is no parameter 2");
        assertThatThrownBy(() -> KeyTemplate.compile("{order.custmer.id}", method("byOrder")))
                .hasMessageContaining(
                        "has no record component, getter (get/isCustmer()), accessor custmer() or public field named 'custmer'");
        assertThatThrownBy(() -> KeyTemplate.compile("{order.customer.id.length.x}", method("byOrder")))
                .hasMessageContaining("String has no property 'length'");
        assertThatThrownBy(() -> KeyTemplate.compile("{id", method("byId"))).hasMessageContaining("unclosed '{'");
        assertThatThrownBy(() -> KeyTemplate.compile("id}", method("byId"))).hasMessageContaining("unmatched '}'");
        assertThatThrownBy(() -> KeyTemplate.compile("{}", method("byId"))).hasMessageContaining("empty placeholder");
        assertThatThrownBy(() -> KeyTemplate.compile("{order..id}", method("byOrder")))
                .hasMessageContaining("empty path segment");
        assertThatThrownBy(() -> KeyTemplate.compile("{x}", method("none")))
                .hasMessageContaining("no parameter named 'x'");
    }
}
