package dev.baton.zookeeper.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/** An ensemble of three real ZooKeeper servers in this JVM (Curator's testing cluster), with the tests' tick. */
public final class TestEnsemble implements AutoCloseable {

    private final TestingCluster cluster;

    /** Starts three servers and waits for their quorum. */
    public TestEnsemble() throws Exception {
        // the servers run in this JVM and read it here: "srvr" tells which one leads
        System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
        InstanceSpec[] specs = new InstanceSpec[3];
        for (int i = 0; i < specs.length; i++) {
            specs[i] = TestZooKeeper.spec(TestZooKeeper.directory("ensemble-" + i));
        }
        cluster = new TestingCluster(specs);
        cluster.start();
    }

    /** @return the connect string of all three */
    public String connect() {
        return cluster.getConnectString();
    }

    /**
     * Kills the leader (as a crash: its sessions' connections are cut, the others elect a new one).
     *
     * @return the killed server
     */
    public InstanceSpec killLeader() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (InstanceSpec spec : cluster.getInstances()) {
                if (mode(spec).equals("leader")) {
                    if (!cluster.killServer(spec)) {
                        throw new IllegalStateException("the leader " + spec + " could not be killed");
                    }
                    return spec;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the ensemble has had no leader for 30 s");
    }

    /** The server's mode, by the "srvr" command: leader, follower, or empty when it does not answer. */
    private static String mode(InstanceSpec spec) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), spec.getPort())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            for (String line : answer.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).strip();
                }
            }
        } catch (IOException e) {
            // not up, or not answering
        }
        return "";
    }

    /**
     * Starts a killed server again.
     *
     * @param spec the server
     */
    public void restart(InstanceSpec spec) throws Exception {
        cluster.restartServer(spec);
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
