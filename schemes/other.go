package schemes

import _ "locator/other"
