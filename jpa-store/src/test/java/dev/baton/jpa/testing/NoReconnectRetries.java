package dev.baton.jpa.testing;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.Session;

/**
 * EclipseLink retries beginning a transaction whose connection broke, on other connections, three
 * times with a pause between: against a database that does not answer, each retry costs a connect
 * timeout. The jpa-store README advises turning that off for the lock store's unit; this is how
 * ({@code eclipselink.session.customizer}).
 */
public final class NoReconnectRetries implements SessionCustomizer {

    @Override
    public void customize(Session session) {
        session.getLogin().setQueryRetryAttemptCount(0);
    }
}
