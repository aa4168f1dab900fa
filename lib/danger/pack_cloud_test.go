package danger

import "testing"

// TestPackCloud names the rule of the cloud and infrastructure pack each command must be decided by ("": allowed).
func TestPackCloud(t *testing.T) {
	checkPack(t, []packCase{
		{"aws s3 sync ./dist s3://acme-www --delete", "cloud.sync-delete"},
		{"aws s3 sync ./empty s3://acme-prod-assets --delete", "cloud.delete-production"},
		{"aws s3 sync ./dist s3://acme-www-staging --delete", ""},
		{"aws s3 sync s3://acme-www ./backup --delete", ""},
		{"gsutil -m rsync -r -d ./public gs://acme-site", "cloud.sync-delete"},
		{"rclone sync ./public r2:acme-site", "cloud.sync-delete"},
		{"rclone sync r2:acme-site ./public", ""},
		{"rclone copy ./public r2:acme-site", ""},
		{"azcopy sync ./dist https://acme.blob.core.windows.net/web --delete-destination=true", "cloud.sync-delete"},
		{"terraform apply --auto-approve -var-file=envs/prod.tfvars", "cloud.iac-apply-unreviewed"},
		{"cd infra/envs/production && terraform apply -auto-approve", "cloud.iac-apply-unreviewed"},
		{"terragrunt run-all apply --terragrunt-non-interactive", "cloud.iac-apply-unreviewed"},
		{"pulumi up --yes --stack prod", "cloud.iac-apply-unreviewed"},
		{"cdk deploy --all --require-approval=never", "cloud.iac-apply-unreviewed"},
		{"terraform apply -auto-approve -var-file=envs/staging.tfvars", ""},
		{"terraform plan -var-file=envs/prod.tfvars", ""},
		{"pulumi preview --stack prod", ""},
		{"cdk deploy --require-approval broadening", ""},
		{"bq rm -f -d acme-prod:analytics", "cloud.delete-production"},
		{"heroku apps:destroy --app myapp --confirm myapp", "cloud.app-destroy"},
		{"gsutil rm -r gs://prod-bucket", "cloud.bucket-delete"},
		{"eksctl delete cluster --name prod", "cloud.cluster-delete"},
		{"az vm delete -g dev-rg -n scratch-1 --yes", "cloud.delete"},
		{"gcloud projects delete acme-prod", "cloud.delete-critical"},
		{"tofu destroy", "cloud.iac-destroy"},
		{"sls remove --stage dev", "cloud.iac-destroy-preview"},
		{"terraform destroy -target=aws_instance.bastion", "cloud.iac-destroy-target"},
		{"pulumi stack rm dev", "cloud.iac-stack-rm"},
		{"terraform state rm aws_instance.web", "cloud.iac-state-rm"},
		{"terraform state list | xargs -n1 terraform state rm", "cloud.iac-state-rm-all"},
		{"terraform workspace delete -force prod", "cloud.iac-workspace-delete"},
		{"aws s3 rb s3://acme-logs --force", "cloud.s3-delete"},
		{"python3 -c \"import boto3; [i.terminate() for i in boto3.resource('ec2').instances.all()]\"", "cloud.sdk-wholesale"},
		{"aws s3 ls", ""},
		{"pulumi preview", ""},
		{"terraform plan", ""},
	})
}
