# want "no workflow step runs checks/orphan.sh: add one to a file matching .github/workflows/\\*.yml"
