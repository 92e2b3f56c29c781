package schemes

import _ "locator/wais"
