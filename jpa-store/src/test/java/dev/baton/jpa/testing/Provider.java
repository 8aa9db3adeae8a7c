package dev.baton.jpa.testing;

/** The JPA providers the store is tested under; each has a unit in the tests' persistence.xml. */
public enum Provider {
    HIBERNATE("baton-hibernate"),
    ECLIPSELINK("baton-eclipselink");

    private final String unit;

    Provider(String unit) {
        this.unit = unit;
    }

    public String unit() {
        return unit;
    }
}
