package schemes

import _ "locator/file"
