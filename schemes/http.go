package schemes

import _ "locator/http"
