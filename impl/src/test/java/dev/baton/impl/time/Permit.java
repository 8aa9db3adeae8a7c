package dev.baton.impl.time;

/**
 * What the Lincheck tests of the permit use of it, so that they run the same operations on {@link FairPermit} and on
 * the flawed copy that proves they bite ({@link FlawedPermitLincheckTest}).
 */
interface Permit {

    boolean tryTake();

    boolean tryTake(long timeoutNanos) throws InterruptedException;

    void give();

    boolean isFree();

    static Permit of(FairPermit permit) {
        return new Permit() {
            @Override
            public boolean tryTake() {
                return permit.tryTake();
            }

            @Override
            public boolean tryTake(long timeoutNanos) throws InterruptedException {
                return permit.tryTake(timeoutNanos);
            }

            @Override
            public void give() {
                permit.give();
            }

            @Override
            public boolean isFree() {
                return permit.isFree();
            }
        };
    }
}
