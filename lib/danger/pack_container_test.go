package danger

import "testing"

// TestPackContainer names the rule of the containers and clusters pack each command must be decided by ("": allowed).
func TestPackContainer(t *testing.T) {
	checkPack(t, []packCase{
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
