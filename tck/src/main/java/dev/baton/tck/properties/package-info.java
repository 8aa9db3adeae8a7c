/**
 * The store properties, an optional group of the TCK: {@link dev.baton.tck.properties.StoreProperties} runs random
 * sequences of store calls against an executable model of the contract and shrinks a failing one. Needs nothing
 * beyond the contract suite's JUnit Jupiter.
 */
package dev.baton.tck.properties;
