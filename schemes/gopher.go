package schemes

import _ "locator/gopher"
