#include <proj.h>
