package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** deploy/k8s read into fabric8's Kubernetes model: the fields a sharded test depends on. */
class DeployManifestsTest {

    static final Path K8S = Path.of(System.getProperty("user.dir")).getParent().resolve("deploy/k8s");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // a misspelt field is an error, not ignored

    static <T> T read(String file, Class<T> type) throws Exception {
        return YAML.readValue(K8S.resolve(file).toFile(), type);
    }

    static Map<String, String> flags(Container c) {
        return c.getArgs().stream().filter(a -> a.startsWith("--"))
                .collect(Collectors.toMap(a -> a.contains("=") ? a.substring(0, a.indexOf('=')) : a,
                        a -> a.contains("=") ? a.substring(a.indexOf('=') + 1) : ""));
    }

    @Test
    void theJobIsIndexedWithOneShardPerPodAndStableNames() throws Exception {
        Job job = read("job.yaml", Job.class);
        Service service = read("service.yaml", Service.class);
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        assertEquals(job.getSpec().getCompletions(), job.getSpec().getParallelism(), "every shard runs at once");
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertEquals(service.getMetadata().getName(), pod.getSubdomain(), "pods are <job>-<index>.<service>");
        assertEquals("None", service.getSpec().getClusterIP(), "a headless Service");
        assertEquals(job.getSpec().getTemplate().getMetadata().getLabels(), service.getSpec().getSelector());
        assertEquals("Never", pod.getRestartPolicy(), "a restarted shard would run its share twice");

        Container c = pod.getContainers().get(0);
        assertEquals("run", c.getArgs().get(0));
        Map<String, String> flags = flags(c);
        assertEquals("/" + job.getSpec().getCompletions(), flags.get("--shard"), "--shard /N with N = completions");
        assertNotNull(flags.get("--start-at"), "shards start together");
        // every argument is one pacer run takes, and the pod with index 2 runs share 2 of N
        List<String> args = c.getArgs().stream().map(a -> a.replace("$(JOB_COMPLETION_INDEX)", "2")).toList();
        picocli.CommandLine.ParseResult parsed = new picocli.CommandLine(new PacerCommand())
                .parseArgs(args.toArray(String[]::new));
        RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
        assertEquals(new dev.pacer.engine.api.Shard(2, job.getSpec().getCompletions()),
                dev.pacer.engine.api.Shard.parse(run.sharding.shard, "2"), "JOB_COMPLETION_INDEX=2 with --shard /N is "
                        + "share 2");
        assertEquals(java.time.Instant.parse(flags.get("--start-at")).toString(), flags.get("--start-at"));
        EnvVar index = c.getEnv().stream().filter(e -> e.getName().equals("JOB_COMPLETION_INDEX")).findFirst()
                .orElseThrow();
        assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
                index.getValueFrom().getFieldRef().getFieldPath(), "the index from the downward API");

        // the endpoints listen on the Service's ports and need the token from the Secret
        List<Integer> servicePorts = service.getSpec().getPorts().stream().map(ServicePort::getPort).toList();
        assertTrue(servicePorts.contains(Integer.parseInt(flags.get("--control").split(":")[1])));
        assertTrue(servicePorts.contains(Integer.parseInt(flags.get("--metrics").split(":")[1])));
        EnvVar token = c.getEnv().stream().filter(e -> e.getName().equals("PACER_CONTROL_TOKEN")).findFirst()
                .orElseThrow();
        Secret secret = read("secret.yaml", Secret.class);
        assertEquals(secret.getMetadata().getName(), token.getValueFrom().getSecretKeyRef().getName());
        assertTrue(secret.getStringData().containsKey(token.getValueFrom().getSecretKeyRef().getKey()));

        // the logs go to the mounted volume, one per shard, and the volume is the claim
        String mount = c.getVolumeMounts().get(0).getMountPath();
        assertTrue(flags.get("--hlog").startsWith(mount + "/")
                && flags.get("--hlog").contains("$(JOB_COMPLETION_INDEX)"),
                flags.get("--hlog"));
        PersistentVolumeClaim claim = read("logs-pvc.yaml", PersistentVolumeClaim.class);
        assertEquals(claim.getMetadata().getName(), pod.getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertEquals(List.of("ReadWriteMany"), claim.getSpec().getAccessModes(), "every shard writes to it");

        // the logs are read back through a running pod that mounts the same claim where the shards wrote
        io.fabric8.kubernetes.api.model.Pod reader =
                read("logs-reader.yaml", io.fabric8.kubernetes.api.model.Pod.class);
        assertEquals(claim.getMetadata().getName(),
                reader.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertEquals(mount, reader.getSpec().getContainers().get(0).getVolumeMounts().get(0).getMountPath());
        assertEquals(List.of("sleep", "3600"), reader.getSpec().getContainers().get(0).getCommand(), "it waits");
    }
}
