/**
 * Leader elections on a real server: two instances of one application (two WARs deployed by the test into one
 * server, on the JPA store over the platform's default data source) run a {@code @Leader} method from an EJB
 * interval timer; one leads and acts, the other's calls skip; when the leader is undeployed its term is revoked
 * and the stand-by takes over within the ttl. The instances journal their terms and actions to files the test
 * reads, so the server must share the test's file system (see
 * {@link dev.baton.tck.runtime.RuntimeTck#workDirectory()}).
 */
package dev.baton.tck.runtime.leadership;
