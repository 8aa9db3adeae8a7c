/**
 * Tools for a store's own fault tests, beside the contract: a TCP proxy that plays a backend that goes away, hangs,
 * or acts on requests without answering them. Store modules use it in their tests; so can a store author's.
 */
package dev.baton.tck.faults;
