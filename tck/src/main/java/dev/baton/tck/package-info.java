/**
 * The Baton compatibility kit. {@link dev.baton.tck.LockStoreContract} is the store contract suite: a
 * store author extends it with one factory method and runs it against the store's real backend;
 * {@link dev.baton.tck.ContractTags} names its groups of rules for running a subset.
 */
package dev.baton.tck;
