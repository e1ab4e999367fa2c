package dev.platform.karpenter.release;

/** The Kubernetes minor versions (1.x) a Karpenter release supports, both ends included. */
public record KubernetesRange(int minMinor, int maxMinor) {
    public String min() {
        return "1." + minMinor;
    }

    public String max() {
        return "1." + maxMinor;
    }

    public boolean contains(String kubernetesVersion) {
        String[] parts = kubernetesVersion.split("\\.");
        if (parts.length < 2 || !parts[0].equals("1")) {
            return false;
        }
        int minor = Integer.parseInt(parts[1]);
        return minor >= minMinor && minor <= maxMinor;
    }

    @Override
    public String toString() {
        return min() + " to " + max();
    }
}
