package schemes

import _ "locator/mailto"
