#!/bin/sh
# want@1 `checks/plain.sh is mode 100644 in the git index, not 100755: git update-index --chmod=\+x checks/plain.sh`
