package danger

import "testing"

// TestPackContainer names the rule of the containers and clusters pack each command must be decided by ("": allowed).
func TestPackContainer(t *testing.T) {
	checkPack(t, []packCase{
		// Out of the container, up the cluster.
		{"docker run --rm -it -v /:/host alpine chroot /host sh", "container.host-escape"},
		{"docker run -d --privileged --pid=host alpine nsenter -t 1 -m -u -n -i sh", "container.host-escape"},
		{"podman run --rm --mount type=bind,source=/,target=/h fedora chroot /h", "container.host-escape"},
		{"sudo nsenter -t 1 -m -u -i -n -p -- bash", "container.host-escape"},
		{"nsenter --target 1 --mount --uts --ipc --net --pid sh", "container.host-escape"},
		{"kubectl debug node/worker-1 -it --image=busybox -- chroot /host", "container.host-escape"},
		{"kubectl debug node/worker-1 -it --image=busybox", "container.host-access"},
		{"docker run --rm -v /:/host alpine sh -c 'ls /host'", "container.host-access"},
		{"docker run --rm -v /:/host:ro alpine ls /host", ""},
		{"docker run -it -v /var/run/docker.sock:/var/run/docker.sock docker:cli sh", "container.host-access"},
		{"docker run --privileged -d --name dind docker:dind", "container.host-access"},
		{"kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin --serviceaccount=default:ci", "container.cluster-admin"},
		{"kubectl create clusterrolebinding anon --clusterrole cluster-admin --group system:anonymous", "container.cluster-admin"},
		{"kubectl create clusterrolebinding ops --clusterrole=cluster-admin --user=alice@example.com", "container.host-access"},
		{"kubectl create rolebinding dev-view --clusterrole=view --serviceaccount=dev:app -n dev", ""},
		{"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...", ""},
		{"docker run --rm -it ubuntu:24.04 bash", ""},
		{"nsenter -t 4242 -n ip addr", ""},
		{"kubectl debug -it api-7d9f --image=busybox --target=api", ""},
		{"kubectl delete deployment api -n production", "container.k8s-prod-workload"},
		{"kubectl --namespace=prod delete sts/redis", "container.k8s-prod-workload"},
		{"kubectl delete -f k8s/ --context prod-eks", "container.k8s-prod-workload"},
		{"kubectl delete pod api-7d9f8 -n production", ""},
		{"kubectl delete deployment api -n staging", ""},
		{"docker volume rm pgdata", "container.volume-data"},
		{"docker volume rm -f myapp_redis-data", "container.volume-data"},
		{"docker volume rm proj_node_modules myapp_cache", ""},
		{"docker volume rm pgdata-test", ""},
		{"docker --context prod system prune -af", "container.delete-production"},
		{"docker-compose down -v", "container.compose-volumes"},
		{"helm uninstall api -n production", "container.helm-uninstall"},
		{"helm list -A -q | xargs -n1 helm uninstall", "container.helm-uninstall-all"},
		{"kubectl delete pv --all", "container.k8s-all"},
		{"kubectl delete crd certificates.cert-manager.io", "container.k8s-crd"},
		{"kubectl delete pvc data-postgres-0", "container.k8s-data"},
		{"kubectl get jobs -n dev -o name | xargs kubectl delete -n dev", "container.k8s-delete-all"},
		{"kubectl delete ns --all", "container.k8s-namespace"},
		{"kubectl scale deployment --all --replicas=0", "container.k8s-scale-all"},
		{"kubectl delete deployment coredns -n kube-system", "container.k8s-system"},
		{"docker volume prune", "container.prune"},
		{"podman rm --all --force", "container.rm-all"},
		{"docker ps", ""},
		{"helm list -A", ""},
		{"kubectl get ns", ""},
	})
}
